/*
 * rfbench: the synthetic sphere packs (the scene described in
 * rfbench.c): spheres in a square column of layers, each touching
 * the one below and its +x and +z grid neighbours.
 */
#include "rfbench.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double uniform(uint64_t *s, double lo, double hi)
{
    return lo +
           (hi - lo) * (double)(splitmix(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* Contacts of a pack with side x side spheres per layer and `layers`
   layers: per sphere 1 (below) + 2 (grid neighbours) minus the edges. */
long pack_contacts(int side, int layers)
{
    return (long)layers * ((long)side * side + 2L * side * (side - 1));
}

/* Build the pack with side x side spheres per layer into p. */
static int build_side(rf_problem *p, int side, pack_info *info)
{
    const int layers = 4;
    const int nb = layers * side * side;
    const long nc = pack_contacts(side, layers);
    const double R = 0.1, rho_mat = 2500.0, h = 1.0 / 60.0;
    const double m = rho_mat * 4.0 / 3.0 * 3.14159265358979323846 * R * R * R;
    const double inv_I = 1.0 / (0.4 * m * R * R);
    rf_error err;
    if (rf_problem_begin_bodies(p, nb, (int)nc, &err) != RF_OK) {
        return die(&err);
    }
    uint64_t seed = 12345;
    for (int b = 0; b < nb; ++b) {
        rf_body_desc bd = {.flags = RF_BODY_DYNAMIC, .inv_mass = 1.0 / m};
        bd.inv_inertia[0] = bd.inv_inertia[4] = bd.inv_inertia[8] = inv_I;
        for (int k = 0; k < 3; ++k) {
            bd.v[k] = uniform(&seed, -0.01, 0.01);
            bd.w[k] = uniform(&seed, -0.1, 0.1);
        }
        bd.v[1] -= 9.81 * h;
        if (rf_problem_set_body(p, b, &bd, &err) != RF_OK) {
            return die(&err);
        }
    }
    int i = 0, world = 0;
    for (int l = 0; l < layers; ++l) {
        for (int x = 0; x < side; ++x) {
            for (int z = 0; z < side; ++z) {
                int b = (l * side + x) * side + z;
                /* below (normal +Y from B to A), then +x and +z neighbours */
                const int other[3] = {l == 0 ? RF_WORLD : b - side * side,
                                      x + 1 < side ? b + side : -2,
                                      z + 1 < side ? b + 1 : -2};
                const double dir[3][3] = {{0, 1, 0}, {-1, 0, 0}, {0, 0, -1}};
                for (int k = 0; k < 3; ++k) {
                    if (other[k] == -2) {
                        continue;
                    }
                    rf_contact_desc c = {.body_a = b,
                                         .body_b = other[k],
                                         .mu = 0.5,
                                         .rho = 0.01,
                                         .sigma = 0.01};
                    memcpy(c.n, dir[k], sizeof c.n);
                    rf_contact_frame(c.n, c.t1, c.t2);
                    for (int d = 0; d < 3; ++d) {
                        c.r_a[d] = -R * c.n[d];
                        c.r_b[d] =
                            other[k] == RF_WORLD ? -R * c.n[d] : R * c.n[d];
                    }
                    if (i % 7 == 0) {
                        c.bias[0] = -0.001 / h; /* slight penetration */
                    }
                    world += other[k] == RF_WORLD;
                    if (rf_problem_set_contact(p, i++, &c, &err) != RF_OK) {
                        return die(&err);
                    }
                }
            }
        }
    }
    info->side = side;
    info->layers = layers;
    info->bodies = nb;
    info->contacts = (int)nc;
    info->world = world;
    info->entries = 2 * (int)nc - world;
    return 0;
}

/* Side of the largest pack with at most `target` contacts (at least 2). */
int pack_side(long target)
{
    int side = 2;
    while (pack_contacts(side + 1, 4) <= target) {
        ++side;
    }
    return side;
}

int build_pack(rf_problem *p, long target, pack_info *info)
{
    return build_side(p, pack_side(target), info);
}

/* The pack closest to `spheres` spheres (4 layers of side^2). */
int build_pile(rf_problem *p, int spheres, pack_info *info)
{
    int side = (int)lround(sqrt((double)spheres / 4.0));
    return build_side(p, side < 2 ? 2 : side, info);
}
