from __future__ import annotations

from hipport.cli import main

raise SystemExit(main())
