/* hipport semantic mode: CUDA 13 removed texture references and this
 * header with them, but the CUDA wrapper of clang <= 19 still includes it.
 * Searched last (-idirafter), so an older CUDA's own copy wins. */
