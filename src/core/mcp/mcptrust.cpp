#include "mcp/mcptrust.h"

#include "settings/settings.h"

namespace Sandpiper::McpTrust {

namespace {

QString policyKey(const QString &tool)
{
    return QStringLiteral("approval/") + tool;
}

QString allowedKey(const QString &tool)
{
    return QStringLiteral("mcp/allowed_always/") + tool;
}

} // namespace

ApprovalPolicy policy(const Settings &settings, const QString &tool)
{
    return approvalPolicyFromName(settings.string(policyKey(tool))).value_or(ApprovalPolicy::Ask);
}

void setPolicy(Settings &settings, const QString &tool, ApprovalPolicy policy)
{
    settings.setValue(policyKey(tool), approvalPolicyName(policy));
    if (policy != ApprovalPolicy::Auto)
        settings.setValue(allowedKey(tool), QString());
}

void allowAlways(Settings &settings, const QString &tool)
{
    settings.setValue(policyKey(tool), approvalPolicyName(ApprovalPolicy::Auto));
    settings.setValue(allowedKey(tool), QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
}

void takeBack(Settings &settings, const QString &tool)
{
    setPolicy(settings, tool, ApprovalPolicy::Ask);
}

QDateTime allowedAlwaysSince(const Settings &settings, const QString &tool)
{
    if (policy(settings, tool) != ApprovalPolicy::Auto)
        return {};
    return QDateTime::fromString(settings.string(allowedKey(tool)), Qt::ISODate);
}

} // namespace Sandpiper::McpTrust
