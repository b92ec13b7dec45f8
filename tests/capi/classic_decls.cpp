/* classic_decls.c compiled as C++ (issue #26 item 3). */
#include "classic_decls.c"
