#include "windowfixture.h"

#include "dockertest.h"

#include <chat/chatview.h>
#include <chat/messagewidget.h>
#include <composer.h>
#include <mainwindow.h>
#include <settings/settings.h>

#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

namespace Sandpiper::Test {

QString WindowFixture::start(const QString &model, const QStringList &assignments)
{
    qputenv("SANDPIPER_API_KEY", "sk-test");
    m_server = std::make_unique<FakeLlmServer>();
    if (!m_server->listen())
        return QStringLiteral("the fake model server does not listen");
    return m_profile.open(m_server->providerSettings(model) + assignments);
}

QString WindowFixture::startWithSandbox(const QStringList &assignments)
{
    return start(QStringLiteral("fake-model"), QStringList{QStringLiteral("sandbox/image=") + sandboxImage(),
                                                           QStringLiteral("sandbox/prewarm=false")} +
                                                   assignments);
}

QString WindowFixture::startWithoutProvider(const QStringList &assignments)
{
    qunsetenv("SANDPIPER_API_KEY");
    qunsetenv("OPENAI_API_KEY");
    m_server = std::make_unique<FakeLlmServer>();
    if (!m_server->listen())
        return QStringLiteral("the fake model server does not listen");
    return m_profile.open(assignments);
}

bool WindowFixture::finish()
{
    const bool closed = m_profile.close();
    m_server.reset();
    return closed;
}

std::unique_ptr<MainWindow> WindowFixture::window() const
{
    return std::make_unique<MainWindow>(settings(), store());
}

std::unique_ptr<MainWindow> WindowFixture::openWindow(QSize size, bool active) const
{
    auto window = this->window();
    // Without the sandbox the check ends inside the constructor, before anyone could wait for it.
    const bool checking = settings()->boolean(QStringLiteral("sandbox/enabled"));
    QSignalSpy health(window.get(), &MainWindow::healthChecked);
    if (size.isValid())
        window->resize(size);
    window->show();
    if (active) {
        window->activateWindow();
        if (!QTest::qWaitForWindowActive(window.get()))
            return nullptr;
    } else if (!QTest::qWaitForWindowExposed(window.get())) {
        return nullptr;
    }
    if (checking && health.isEmpty() && !health.wait(20000))
        return nullptr;
    return window;
}

MessageWidget *lastMessage(const MainWindow *window)
{
    const QList<MessageWidget *> messages = window->chatView()->messageWidgets();
    return messages.isEmpty() ? nullptr : messages.constLast();
}

QString lastMessageText(const MainWindow *window)
{
    const MessageWidget *message = lastMessage(window);
    return message ? message->plainText() : QString();
}

QPushButton *visibleButton(const QWidget *parent, const QString &text)
{
    // A step that failed before may leave no widget to look in: the next check fails, not the test.
    if (!parent)
        return nullptr;
    for (QPushButton *button : parent->findChildren<QPushButton *>()) {
        if (button->text() == text && button->isVisible())
            return button;
    }
    return nullptr;
}

void ask(MainWindow *window, const QString &text)
{
    window->composer()->editor()->setFocus();
    QTest::keyClicks(window->composer()->editor(), text);
    QTest::keyClick(window->composer()->editor(), Qt::Key_Return);
}

} // namespace Sandpiper::Test
