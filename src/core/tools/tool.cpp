#include "tools/tool.h"

namespace Sandpiper {

QString approvalPolicyName(ApprovalPolicy policy)
{
    switch (policy) {
    case ApprovalPolicy::Ask:
        return QStringLiteral("ask");
    case ApprovalPolicy::Auto:
        return QStringLiteral("auto");
    case ApprovalPolicy::Never:
        return QStringLiteral("never");
    }
    return {};
}

std::optional<ApprovalPolicy> approvalPolicyFromName(QStringView name)
{
    for (const auto policy : {ApprovalPolicy::Ask, ApprovalPolicy::Auto, ApprovalPolicy::Never}) {
        if (name == approvalPolicyName(policy))
            return policy;
    }
    return std::nullopt;
}

} // namespace Sandpiper
