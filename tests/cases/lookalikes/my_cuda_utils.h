// Stand-in for a project header; hipport must not touch the include of it.
