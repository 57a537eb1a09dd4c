#include "testprofile.h"

#include "settingsoverrides.h"

#include <agent/agentthread.h>
#include <session/sessionmanager.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>

using namespace std::chrono_literals;

namespace Sandpiper::Test {

TestProfile::TestProfile() = default;

TestProfile::~TestProfile()
{
    m_sessions.reset();
    m_store.reset();
    m_settings.reset();
}

QStringList TestProfile::offline()
{
    return {QStringLiteral("sandbox/enabled=false"), QStringLiteral("provider=custom"),
            QStringLiteral("providers/custom/base_url=http://127.0.0.1:9/v1")};
}

QString TestProfile::open(const QStringList &assignments)
{
    m_sessions.reset();
    m_store.reset();
    m_settings.reset();
    m_folder = std::make_unique<QTemporaryDir>();
    if (!m_folder->isValid())
        return QStringLiteral("no temporary folder for the profile: %1").arg(m_folder->errorString());
    m_settings = std::make_unique<Settings>(m_folder->path());
    if (QString refused = set(assignments); !refused.isEmpty())
        return refused;
    m_store = std::make_unique<ConversationStore>(m_settings->dataDirectory());
    if (auto opened = m_store->open(); !opened)
        return opened.error().message;
    return {};
}

QString TestProfile::set(const QStringList &assignments)
{
    return applySettings(*m_settings, assignments);
}

SessionManager *TestProfile::sessions()
{
    if (!m_sessions)
        m_sessions = std::make_unique<SessionManager>(m_settings.get(), m_store.get());
    return m_sessions.get();
}

bool TestProfile::close()
{
    m_sessions.reset();
    const bool retired = AgentThread::waitForRetiredThreads(20s);
    m_store.reset();
    m_settings.reset();
    return retired;
}

} // namespace Sandpiper::Test
