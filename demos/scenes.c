/*
 * Every scene rfdemo knows, in the order `rfdemo list` shows them: the
 * seed validation scenes, then the converted Bullet demos.
 */
#include "demo.h"

#include <string.h>

const demo_scene *const demo_scenes[] = {
    /* the seed validation scenes */
    &demo_rolling_disk,
    &demo_sphere_on_plane,
    &demo_roll_direction,
    &demo_roll_mass_dt,
    &demo_spin_down,
    &demo_incline_threshold,
    &demo_guideway,
    &demo_gravel_pile,
    &demo_sphere_pile,
    &demo_cohesion,
    &demo_soft_contact,
    &demo_impacts,
    /* the converted Bullet demos */
    &demo_hello_world,
    &demo_basic_demo,
    &demo_rolling_friction_demo,
    &demo_inclined_plane,
};
const int demo_nscenes = (int)(sizeof demo_scenes / sizeof demo_scenes[0]);

const demo_scene *demo_find_scene(const char *name)
{
    for (int i = 0; i < demo_nscenes; ++i) {
        if (strcmp(demo_scenes[i]->name, name) == 0) {
            return demo_scenes[i];
        }
    }
    return NULL;
}
