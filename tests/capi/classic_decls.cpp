/* classic_decls.c compiled as C++. */
#include "classic_decls.c"
