/*
 * The executables' main: one per scene, built with -DDEMO_SCENE=<the
 * scene's descriptor> (demos/CMakeLists.txt).
 */
#include "demo.h"

#ifndef DEMO_SCENE
#error "define DEMO_SCENE, e.g. -DDEMO_SCENE=demo_hello_world"
#endif

int main(int argc, char **argv)
{
    return demo_main(argc, argv, &DEMO_SCENE);
}
