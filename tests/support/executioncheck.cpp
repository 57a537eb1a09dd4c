#include "executioncheck.h"

namespace Sandpiper::Test {

QString describeExecution(const ExecutionResult &r)
{
    return QStringLiteral("status=%1 value=%2 error=%3: %4\nstdout=%5\nstderr=%6\n%7\nrefused=%8\nnotes=%9")
        .arg(ExecutionResult::statusName(r.status), r.value, r.errorType, r.errorMessage, r.standardOutput.left(500),
             r.standardError.left(500), r.traceback, r.refused.join(u'|'), r.notes.join(u'|'));
}

} // namespace Sandpiper::Test
