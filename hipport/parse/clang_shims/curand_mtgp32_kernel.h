/* hipport semantic mode: the device pass of clang's CUDA wrapper includes
 * this cuRAND header, which CUDA 13 no longer ships with the toolkit (it is
 * in the cuRAND wheel).  Searched last (-idirafter), so a real copy wins. */
