#include "storage/storedexecution.h"

namespace Sandpiper {

QString StoredExecution::originName(Origin origin)
{
    return origin == Origin::User ? QStringLiteral("user") : QStringLiteral("model");
}

std::optional<StoredExecution::Origin> StoredExecution::originFromName(QStringView name)
{
    if (name == QLatin1String("model"))
        return Origin::Model;
    if (name == QLatin1String("user"))
        return Origin::User;
    return std::nullopt;
}

std::optional<ExecutionResult::Status> StoredExecution::statusFromName(QStringView name)
{
    using Status = ExecutionResult::Status;
    for (const Status status : {Status::Ok, Status::Error, Status::Interrupted, Status::Crashed, Status::Unavailable}) {
        if (name == ExecutionResult::statusName(status))
            return status;
    }
    return std::nullopt;
}

} // namespace Sandpiper
