/*
 * A binding's view of the library: no header, no link
 * against it; the library is opened with dlopen and every function of the
 * classic Bullet-C-Api.h is looked up by its plain name, as FFI bindings
 * (Go, Common Lisp, Lua, Node) do, plNewBulletSdk included.  Then a ball is
 * dropped through the bound functions.
 *
 * usage: classic_dlsym LIBRARY   (REAL is float, or double when built with
 * -DBT_USE_DOUBLE_PRECISION for librollfric-float64.so)
 */
#include <dlfcn.h>
#include <stdio.h>

#ifdef BT_USE_DOUBLE_PRECISION
typedef double real;
#else
typedef float real;
#endif
typedef void *handle;

static const char *const classic_names[] = {"plNewBulletSdk",
                                            "plDeletePhysicsSdk",
                                            "plCreateSapBroadphase",
                                            "plDestroyBroadphase",
                                            "plCreateProxy",
                                            "plDestroyProxy",
                                            "plSetBoundingBox",
                                            "plCreateCollisionWorld",
                                            "plCreateDynamicsWorld",
                                            "plDeleteDynamicsWorld",
                                            "plStepSimulation",
                                            "plAddRigidBody",
                                            "plRemoveRigidBody",
                                            "plCreateRigidBody",
                                            "plDeleteRigidBody",
                                            "plNewSphereShape",
                                            "plNewBoxShape",
                                            "plNewCapsuleShape",
                                            "plNewConeShape",
                                            "plNewCylinderShape",
                                            "plNewCompoundShape",
                                            "plAddChildShape",
                                            "plDeleteShape",
                                            "plNewConvexHullShape",
                                            "plAddVertex",
                                            "plNewMeshInterface",
                                            "plAddTriangle",
                                            "plNewStaticTriangleMeshShape",
                                            "plSetScaling",
                                            "plGetOpenGLMatrix",
                                            "plGetPosition",
                                            "plGetOrientation",
                                            "plSetPosition",
                                            "plSetOrientation",
                                            "plSetEuler",
                                            "plSetOpenGLMatrix",
                                            "plRayCast",
                                            "plNearestPoints"};

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: classic_dlsym LIBRARY\n");
        return 2;
    }
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        printf("FAIL: dlopen: %s\n", dlerror());
        return 1;
    }
    int bad = 0;
    for (size_t k = 0; k < sizeof classic_names / sizeof *classic_names; ++k) {
        if (dlsym(lib, classic_names[k]) == NULL) {
            printf("FAIL: %s is not exported\n", classic_names[k]);
            bad = 1;
        }
    }
    if (bad) {

        return 1;
    }
    /* the bound functions, typed as the classic header declares them */
    handle (*new_sdk)(void);
    handle (*create_world)(handle);
    handle (*sphere)(real);
    handle (*create_body)(void *, float, handle);
    void (*add_body)(handle, handle);
    void (*set_position)(handle, const real *);
    void (*step)(handle, real);
    void (*get_position)(handle, real *);
    void (*remove_body)(handle, handle);
    void (*delete_body)(handle);
    void (*delete_shape)(handle);
    void (*delete_world)(handle);
    void (*delete_sdk)(handle);
    /* POSIX: a function pointer round-trips through dlsym's void * */
    *(void **)&new_sdk = dlsym(lib, "plNewBulletSdk");
    *(void **)&create_world = dlsym(lib, "plCreateDynamicsWorld");
    *(void **)&sphere = dlsym(lib, "plNewSphereShape");
    *(void **)&create_body = dlsym(lib, "plCreateRigidBody");
    *(void **)&add_body = dlsym(lib, "plAddRigidBody");
    *(void **)&set_position = dlsym(lib, "plSetPosition");
    *(void **)&step = dlsym(lib, "plStepSimulation");
    *(void **)&get_position = dlsym(lib, "plGetPosition");
    *(void **)&remove_body = dlsym(lib, "plRemoveRigidBody");
    *(void **)&delete_body = dlsym(lib, "plDeleteRigidBody");
    *(void **)&delete_shape = dlsym(lib, "plDeleteShape");
    *(void **)&delete_world = dlsym(lib, "plDeleteDynamicsWorld");
    *(void **)&delete_sdk = dlsym(lib, "plDeletePhysicsSdk");

    handle sdk = new_sdk();
    handle world = create_world(sdk);
    handle ball = sphere((real)0.5);
    handle body = create_body(NULL, 1.0f, ball);
    if (sdk == NULL || world == NULL || ball == NULL || body == NULL) {
        printf("FAIL: creation through the bound functions failed\n");

        return 1;
    }
    add_body(world, body);
    const real start[3] = {0, 10, 0};
    set_position(body, start);
    for (int i = 0; i < 60; ++i) {
        step(world, (real)(1.0 / 60.0));
    }
    real p[3];
    get_position(body, p);
    /* one second of free fall, gravity 10 (the classic world's), Bullet's
       semi-implicit Euler at 1/60 s: y = 10 - g h^2 n (n + 1) / 2 = 4.9167
       (float rounding: 1e-3) */
    const double want = 10.0 - 10.0 * 61.0 / 120.0;
    if (!(p[1] > want - 1e-3 && p[1] < want + 1e-3)) {
        printf("FAIL: ball at y = %g after 1 s, want %g\n", (double)p[1], want);
        bad = 1;
    }
    remove_body(world, body);
    delete_body(body);
    delete_shape(ball);
    delete_world(world);
    delete_sdk(sdk);
    /* no dlclose: bindings keep the library loaded (and LeakSanitizer
       cannot name the frames of an unloaded module) */
    if (!bad) {
        printf("bound %zu classic functions by name; free fall as classic\n",
               sizeof classic_names / sizeof *classic_names);
    }
    return bad;
}
