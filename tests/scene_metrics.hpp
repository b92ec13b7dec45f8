// Measures the Bullet scene tests share (tests/test_bullet_scenes_api.cpp,
// tests/test_bullet_settle_api.cpp): perturbed copies of a scene, its
// sleep step, its creep, and medians over copies.  Header-only.
#ifndef ROLLFRIC_TESTS_SCENE_METRICS_HPP
#define ROLLFRIC_TESTS_SCENE_METRICS_HPP

#include "../bench/bullet_scenes.hpp"

#include <algorithm>
#include <vector>

// Steps w (its plugin attached) to step `to` and returns the mean
// sideways displacement of its dynamic bodies from where they were after
// step `from` (0 < from < to), m: how far a settled scene creeps.
inline double settled_creep(rfscenes::World &w, int from, int to)
{
    std::vector<btVector3> x0;
    for (int i = 1; i <= to; ++i) {
        w.step();
        if (i == from) {
            for (auto &b : w.bodies) {
                x0.push_back(b->getWorldTransform().getOrigin());
            }
        }
    }
    double sum = 0.0;
    int n = 0;
    for (size_t i = 0; i < w.bodies.size(); ++i) {
        if (w.bodies[i]->getInvMass() == 0) {
            continue;
        }
        sum += rfscenes::sideways(w, (int)i, x0[i]);
        ++n;
    }
    return n > 0 ? sum / n : 0.0;
}

// Copy k of a scene: its gravity scaled by 1 + 1e-3 k (perturbed copies,
// which part as independent runs do).
inline void perturb(rfscenes::World &w, int k)
{
    w.world.setGravity(w.world.getGravity() * btScalar(1 + 1e-3 * k));
}

// Steps w (its plugin attached) until every body sleeps, at most max steps;
// the step after which all slept, or max + 1.
inline int sleep_step(rfscenes::World &w, int max)
{
    for (int i = 1; i <= max; ++i) {
        w.step();
        if (rfscenes::awake_bodies(w) == 0) {
            return i;
        }
    }
    return max + 1;
}

// The median of v (the upper one of an even count).
inline double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

#endif // ROLLFRIC_TESTS_SCENE_METRICS_HPP
