/*
 * A pl* program that starts a recording and returns without deleting its
 * world or SDK, as many C programs do: the library ends the recording at
 * exit (rf_bullet_record_end), so that it reads as complete.
 *
 *   exit_recording write FILE   a ball on a plane, 10 steps of 1/60 s
 *                               recorded into FILE, nothing deleted
 *   exit_recording check FILE   FILE read back: complete (the end mark),
 *                               the 2 bodies, the 10 steps' frames (the
 *                               state at each step's start; no last frame:
 *                               nothing is read from the world at exit)
 */
#include <rollfric/bullet_c_api.h>
#include <rollfric/record.h>

#include <stdio.h>
#include <string.h>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

static int write_run(const char *path)
{
#if defined(__SANITIZE_ADDRESS__)
    /* what this program never deletes is its point, not a leak */
    __lsan_disable();
#endif
    plPhysicsSdkHandle sdk = plNewBulletSdk();
    plDynamicsWorldHandle world = plCreateDynamicsWorld(sdk);
    const plVector3 up = {0, 1, 0};
    plCollisionShapeHandle plane = plNewStaticPlaneShape(up, 0);
    plCollisionShapeHandle ball = plNewSphereShape(0.5);
    plRigidBodyHandle ground = plCreateRigidBody(NULL, 0, plane);
    plRigidBodyHandle body = plCreateRigidBody(NULL, 1, ball);
    if (world == NULL || ground == NULL || body == NULL) {
        fprintf(stderr, "exit_recording: %s\n", plGetLastError());
        return 1;
    }
    const plVector3 at = {0, 0.5, 0};
    if (plSetPosition(body, at) != PL_OK ||
        plAddRigidBody(world, ground) != PL_OK ||
        plAddRigidBody(world, body) != PL_OK ||
        plStartRecording(world, path, 0, 0) != PL_OK) {
        fprintf(stderr, "exit_recording: %s\n", plGetLastError());
        return 1;
    }
    for (int i = 0; i < 10; ++i) {
        if (plStepSimulationFixed(world, 1.0f / 60, 1, 1.0f / 60) != PL_OK) {
            fprintf(stderr, "exit_recording: %s\n", plGetLastError());
            return 1;
        }
    }
    return 0; /* no plStopRecording, no delete */
}

static int check_run(const char *path)
{
    rf_recording *r = NULL;
    rf_error err;
    if (rf_recording_read(path, &r, &err) != RF_OK) {
        fprintf(stderr, "exit_recording: %s\n", err.message);
        return 1;
    }
    const int ok = r->complete == 1 && r->nbody == 2 && r->nframe == 10;
    printf("%s: complete %d, bodies %d, frames %d (want 1, 2, 10): %s\n", path,
           r->complete, r->nbody, r->nframe, ok ? "ok" : "FAIL");
    rf_recording_free(r);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "write") == 0) {
        return write_run(argv[2]);
    }
    if (argc == 3 && strcmp(argv[1], "check") == 0) {
        return check_run(argv[2]);
    }
    fprintf(stderr, "usage: exit_recording write|check FILE\n");
    return 2;
}
