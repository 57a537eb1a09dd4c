#pragma once

#include <sandbox/executionresult.h>

#include <QString>
#include <QTest>

namespace Sandpiper::Test {

// What a test failure shows of an execution: status, value, error, the start of both streams,
// what the host refused and the notes.
QString describeExecution(const ExecutionResult &result);

} // namespace Sandpiper::Test

// Fails the test with the whole execution described unless EXPRESSION has status EXPECTED.
#define CHECK_STATUS(expression, expected)                                                                             \
    do {                                                                                                               \
        const Sandpiper::ExecutionResult checked_ = (expression);                                                      \
        QVERIFY2(checked_.status == (expected), qPrintable(Sandpiper::Test::describeExecution(checked_)));             \
    } while (false)
