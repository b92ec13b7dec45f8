// The adaptive thread count of a cone step (rf_config.threads == 0, issue
// #22): each step runs on OpenMP's thread count (the team) or on one,
// whichever cost less per item lately.  Plain C++, no Bullet and no
// OpenMP, so that tests/test_thread_choice.cpp can drive it with made-up
// step costs.  Header-only.
//
// Why adaptive: on a machine where another process keeps a core busy,
// OpenMP's barriers wait for descheduled threads and two threads took
// 2.2x one's time (passive waiting; under libgomp's default policy, which
// spins, up to 350x).
//
// The rules (docs/bullet.md, "Threads", with the measured costs they
// were built against):
//  - the first step runs on one thread, the next two on the team, the
//    fourth on one thread again; the first step on each count is not
//    counted: one thread's makes the problem's allocations (3-10x a later
//    step's cost per item at the same size: counted, it held the full
//    pyramid on a team 2x slower for its first 17 steps), the team's
//    starts OpenMP's threads;
//  - the count in use is measured every step; the other is tried for one
//    step every 16 r steps, r the ratio of its cost to the one in use's,
//    from 16 to 4,096 steps (68 s at 60 Hz), so that a try that loses big
//    costs about 6% of the steps between tries (r / 4,096 at the cap:
//    8.5% for a 350x loss); but every 16 steps while the other has been
//    measured only once (its one sample may be a one-off: the first step
//    on one thread makes the problem's allocations, up to 30x a later
//    step's cost per item, and held the full falling boxes on a slower
//    team for their first hundred steps);
//  - a count's cost is the median of its last five steps (of those it
//    has, at first), so that a step or two decide nothing: under load a
//    step on two threads costs 1x or 200x one thread's, as the other
//    process is scheduled or not, and an idle machine has hiccups too
//    (the full falling boxes, one thread: a step at 5.5x its neighbours'
//    and the next at 2.4x, as the scene grew and its arrays with it).  An
//    average weighing each step a half, the rule until the twenty-third
//    round, took such a pair for the count's cost, handed the run to a
//    team 1.5x slower and kept it there until the next try, 38 steps on:
//    178-212 of the 600 steps on the team, 1.05-1.14x stock's step
//    against 0.99-1.01x on one thread.  Except that a step at under half
//    the cost starts the count afresh: slow outliers are what load does,
//    and a step that fast means one-off costs (allocations, OpenMP's
//    start) are over;
//  - the choice switches when the other's cost is under 0.95 times the
//    one in use's (hysteresis against noise);
//  - steps with fewer than min_items items teach nothing (they run on one
//    thread either way);
//  - a team step while one thread is in use (the team's first steps, a
//    try) is taken only if the machine has a processor free for each of
//    the team's threads (the caller's `crowded` says it has not: another
//    process keeps a core busy): a team step then costs 4-350x a
//    one-thread step, and the first two alone decided a short run
//    (1.5x its one-thread time under libgomp's default wait policy).
//    Crowded, the try is put off to the next (the team's first steps:
//    kTryMin steps on), and the team's cost stays unknown.  Not asked
//    for a team step right after another (the team's second step: the
//    first was let through, and its threads may still be spinning).
#ifndef ROLLFRIC_SHIM_THREAD_CHOICE_HPP
#define ROLLFRIC_SHIM_THREAD_CHOICE_HPP

#include <algorithm>

#if defined(__linux__)
#include <fcntl.h>
#include <unistd.h>
#endif

namespace rfshim {

// The tasks ready to run on the machine besides the caller, from the
// kernel's count of the moment (/proc/loadavg: "running/total", the
// caller included), the least of three reads (one read may catch a
// kernel thread's instant); -1 where there is no such count.
inline int runnable_others()
{
#if defined(__linux__)
    int least = -1;
    for (int k = 0; k < 3; ++k) {
        const int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            return -1;
        }
        char buf[128];
        const ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (n <= 0) {
            return -1;
        }
        buf[n] = '\0';
        // the fourth field: skip three numbers and their spaces
        const char *c = buf;
        for (int f = 0; f < 3 && *c != '\0'; ++f) {
            while (*c != '\0' && *c != ' ') {
                ++c;
            }
            while (*c == ' ') {
                ++c;
            }
        }
        int running = 0, digits = 0;
        for (; *c >= '0' && *c <= '9' && digits < 9; ++c, ++digits) {
            running = 10 * running + (*c - '0');
        }
        if (digits == 0 || *c != '/' || running < 1) {
            return -1;
        }
        least = least < 0 || running - 1 < least ? running - 1 : least;
    }
    return least;
#else
    return -1;
#endif
}

class ThreadChoice {
  public:
    static constexpr unsigned kTryMin = 16;   // steps between tries, least
    static constexpr unsigned kTryMax = 4096; // and most

    explicit ThreadChoice(int min_items) : min_items_(min_items)
    {
    }

    // This step's thread count, team (>= 2: OpenMP's count) or 1.
    // crowded() (asked only before a team step while one thread is in
    // use): true when the machine has fewer free processors than the team
    // has threads.
    template <class Crowded> int choose(int team, Crowded crowded)
    {
        int use = choice_;
        if (!one_started_) {
            use = 1; // one thread first: under load the team's first step
                     // is the costly try
        } else if (cost_[0] < 0.0) {
            use = hold_ > 0 ? 1 : 0;
            hold_ -= hold_ > 0;
        } else if (cost_[1] < 0.0) {
            use = 1; // one thread's first counted step
        } else if (++since_ >= every_) {
            use = 1 - choice_;
            since_ = 0;
        }
        // (not asked right after a team step: the gate let that one
        // through, and OpenMP's threads may still be spinning after it,
        // which the count would take for another process's)
        if (use == 0 && choice_ == 1 && probe_ != 0 && crowded()) {
            use = 1; // put off: the next try, or kTryMin steps on
            hold_ = cost_[0] < 0.0 ? kTryMin : 0;
        }
        probe_ = use;
        return use == 0 ? team : 1;
    }

    int choose(int team)
    {
        return choose(team, [] { return false; });
    }

    // The step chosen last took seconds for items contacts and rows.
    void learn(double seconds, int items)
    {
        if (probe_ < 0 || items < min_items_ || !(seconds >= 0.0)) {
            return;
        }
        if (probe_ == 0 && !team_started_) {
            team_started_ = true; // it started OpenMP's threads
            return;
        }
        if (probe_ == 1 && !one_started_) {
            one_started_ = true; // it made the problem's allocations
            return;
        }
        record(probe_, seconds / items);
        if (cost_[0] < 0.0 || cost_[1] < 0.0) {
            return;
        }
        const int was = choice_;
        const int use = cost_[1 - was] < 0.95 * cost_[was] ? 1 - was : was;
        if (use != was) {
            choice_ = use;
            since_ = 0;
        }
        const double r = cost_[1 - use] / cost_[use];
        every_ = seen_[1 - use] < 2 ? kTryMin
                 : !(r < (double)(kTryMax / kTryMin))
                     ? kTryMax
                     : std::max(kTryMin, (unsigned)(kTryMin * r));
    }

    // 0: the team, 1: one thread (the count in use between tries)
    int choice() const
    {
        return choice_;
    }

  private:
    // Count k's step at cost per item into its last kLast and its cost
    // (the rules above).
    void record(int k, double cost)
    {
        double *last = last_[k];
        if (cost_[k] < 0.0 || cost < 0.5 * cost_[k]) {
            nlast_[k] = 0; // afresh
        }
        last[nlast_[k] < kLast ? nlast_[k] : next_[k]] = cost;
        next_[k] = nlast_[k] < kLast ? 0 : (next_[k] + 1) % kLast; // oldest
        nlast_[k] += nlast_[k] < kLast;
        seen_[k] += seen_[k] < 2;
        // the median (of an even count, the mean of the middle two)
        const int n = nlast_[k];
        double v[kLast];
        for (int i = 0; i < n; ++i) { // insertion sort: five at most
            int j = i;
            for (; j > 0 && v[j - 1] > last[i]; --j) {
                v[j] = v[j - 1];
            }
            v[j] = last[i];
        }
        cost_[k] = n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    }

    static constexpr int kLast = 5; // the steps a count's cost is of

    int min_items_;
    int choice_ = 1;                // 0: the team, 1: one thread
    int probe_ = -1;                // the count of the step chosen last
    double cost_[2] = {-1.0, -1.0}; // s per item (-1: unknown)
    double last_[2][kLast] = {};    // each count's last steps' costs
    int nlast_[2] = {0, 0};         // steps in last_ (up to kLast)
    int next_[2] = {0, 0};          // with kLast: the oldest, replaced next
    int seen_[2] = {0, 0};          // steps measured, counted up to 2
    bool team_started_ = false;
    bool one_started_ = false;
    unsigned since_ = 0;       // steps since the other count's try
    unsigned every_ = kTryMin; // steps between tries
    unsigned hold_ = 0;        // steps before the team's first is asked
};

} // namespace rfshim

#endif // ROLLFRIC_SHIM_THREAD_CHOICE_HPP
