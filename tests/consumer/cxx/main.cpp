// The C API from C++: project a vector that lies outside the sliding cone
// and check the result against the closed form.
#include <rollfric/rollfric.h>

#include <cmath>
#include <cstdio>
#include <cstring>

int main()
{
    // gn = 1, sliding (3, 0) with mu = 0.5: the projection on the 2D
    // second-order cone {mu gn >= |gt|} is
    //   gn' = (gn + mu |gt|) / (1 + mu^2),  gt' = mu gn' gt / |gt|.
    const double mu = 0.5;
    const double x[6] = {1.0, 3.0, 0.0, 0.0, 0.0, 0.0};
    double p[6];
    if (rf_project_contact(x, mu, 0.0, 0.0, p) != RF_OK)
        return 1;
    const double gn = (1.0 + mu * 3.0) / (1.0 + mu * mu);
    const double want[6] = {gn, mu * gn, 0.0, 0.0, 0.0, 0.0};
    double err = 0.0;
    for (int k = 0; k < 6; ++k)
        err = std::fmax(err, std::fabs(p[k] - want[k]));
    std::printf("rollfric %s from C++: projection error %.1e\n", rf_version(),
                err);
    return std::strlen(rf_version()) > 0 && err < 1e-14 ? 0 : 1;
}
