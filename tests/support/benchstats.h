#pragma once

#include <QElapsedTimer>
#include <QList>

namespace Sandpiper::Test {

// The figures the benchmarks print: percentiles of samples in milliseconds.
double percentile(QList<double> samples, double p);
double elapsedMs(const QElapsedTimer &timer);
// One table row: NAME (padded to WIDTH), the count, the median, the 95th percentile, the minimum.
void printRow(const char *name, const QList<double> &samples, int width);

} // namespace Sandpiper::Test
