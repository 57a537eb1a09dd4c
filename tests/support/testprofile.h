#pragma once

#include <QStringList>
#include <QTemporaryDir>

#include <memory>

namespace Sandpiper {
class ConversationStore;
class SessionManager;
class Settings;
} // namespace Sandpiper

namespace Sandpiper::Test {

// A profile of a test's own: a temporary folder, the settings in it and the conversation store.
class TestProfile
{
public:
    TestProfile();
    ~TestProfile();

    // No sandbox, and a provider whose server never answers: for tests that send nothing.
    static QStringList offline();

    // Opens a fresh profile with ASSIGNMENTS (KEY=VALUE) for this run; empty when all went well,
    // else why not.
    [[nodiscard]] QString open(const QStringList &assignments = {});
    // More assignments for this run; why the first refused one was, else empty.
    [[nodiscard]] QString set(const QStringList &assignments);
    // The sessions go, and their agents finish saving before the store goes; false when they
    // did not in time.
    [[nodiscard]] bool close();

    QString path() const { return m_folder->path(); }
    // NAME in the profile's folder.
    QString filePath(const QString &name) const { return m_folder->filePath(name); }
    Settings *settings() const { return m_settings.get(); }
    ConversationStore *store() const { return m_store.get(); }
    // Sessions on the profile, made at the first call.
    SessionManager *sessions();

private:
    std::unique_ptr<QTemporaryDir> m_folder;
    std::unique_ptr<Settings> m_settings;
    std::unique_ptr<ConversationStore> m_store;
    std::unique_ptr<SessionManager> m_sessions;
};

} // namespace Sandpiper::Test
