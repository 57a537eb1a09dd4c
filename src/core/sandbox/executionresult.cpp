#include "sandbox/executionresult.h"

namespace Sandpiper {

QString ExecutionResult::statusName(Status status)
{
    switch (status) {
    case Status::Ok:
        return QStringLiteral("ok");
    case Status::Error:
        return QStringLiteral("error");
    case Status::Interrupted:
        return QStringLiteral("interrupted");
    case Status::Crashed:
        return QStringLiteral("crashed");
    case Status::Unavailable:
        return QStringLiteral("unavailable");
    }
    return {};
}

} // namespace Sandpiper
