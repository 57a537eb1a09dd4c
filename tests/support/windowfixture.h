#pragma once

#include "fakellmserver.h"
#include "testprofile.h"

#include <QSize>

#include <memory>

class QPushButton;
class QWidget;

namespace Sandpiper {
class MainWindow;
class MessageWidget;
} // namespace Sandpiper

namespace Sandpiper::Test {

// What the app's end-to-end tests stand on: the fake model server, a profile of their own and
// the main window on it.
class WindowFixture
{
public:
    // The server listens and a fresh profile makes it the provider with MODEL (its key in
    // SANDPIPER_API_KEY), with ASSIGNMENTS after; empty when all went well, else why not.
    [[nodiscard]] QString start(const QString &model, const QStringList &assignments = {});
    // The same with the sandbox of the build's image, not started before it is needed.
    [[nodiscard]] QString startWithSandbox(const QStringList &assignments = {});
    // A first start: the server listens, but the profile names no provider and no key is set.
    [[nodiscard]] QString startWithoutProvider(const QStringList &assignments = {});
    // The agents finish saving, then the store, the settings and the server go; false when the
    // agents did not finish in time.
    [[nodiscard]] bool finish();

    FakeLlmServer &server() { return *m_server; }
    TestProfile &profile() { return m_profile; }
    Settings *settings() const { return m_profile.settings(); }
    ConversationStore *store() const { return m_profile.store(); }

    // A window on the profile, not shown yet.
    std::unique_ptr<MainWindow> window() const;
    // A window shown (at SIZE, when given; made active, when ACTIVE) whose sandbox check has
    // ended, when the sandbox is on; null when it did not come up.
    std::unique_ptr<MainWindow> openWindow(QSize size = {}, bool active = false) const;

private:
    std::unique_ptr<FakeLlmServer> m_server;
    TestProfile m_profile;
};

// The newest message in WINDOW's chat, null without one, and its text.
MessageWidget *lastMessage(const MainWindow *window);
QString lastMessageText(const MainWindow *window);
// The visible button in PARENT that says TEXT, or null.
QPushButton *visibleButton(const QWidget *parent, const QString &text);
// Types TEXT into WINDOW's composer and presses Enter.
void ask(MainWindow *window, const QString &text);

} // namespace Sandpiper::Test
