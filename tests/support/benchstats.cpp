#include "benchstats.h"

#include <algorithm>
#include <cstdio>

namespace Sandpiper::Test {

double percentile(QList<double> samples, double p)
{
    std::sort(samples.begin(), samples.end());
    const auto index = qsizetype(std::clamp(p * double(samples.size() - 1) + 0.5, 0.0, double(samples.size() - 1)));
    return samples.at(index);
}

double elapsedMs(const QElapsedTimer &timer)
{
    return double(timer.nsecsElapsed()) / 1e6;
}

void printRow(const char *name, const QList<double> &samples, int width)
{
    std::printf("%-*s %6lld %10.3f %10.3f %10.3f\n", width, name, qlonglong(samples.size()), percentile(samples, 0.5),
                percentile(samples, 0.95), *std::min_element(samples.begin(), samples.end()));
}

} // namespace Sandpiper::Test
