#include "sandboxfixture.h"

#include "dockertest.h"
#include "executioncheck.h"

#include <QCoroTask>
#include <QTest>

using namespace std::chrono_literals;

namespace Sandpiper::Test {

const QString forgeKernel = QStringLiteral("import gc, os\n"
                                           "kernel = next(o for o in gc.get_objects() if type(o).__name__ == "
                                           "'Kernel')\n");

SandboxConfig SandboxFixture::config(const QString &conversation) const
{
    SandboxConfig config;
    config.image = sandboxImage();
    config.conversationId = conversation;
    config.dataDirectory = m_dir.path() + QLatin1Char('/') + conversation;
    config.memory = QStringLiteral("1g");
    config.executionTimeout = 30s;
    config.interruptGrace = 3s;
    return config;
}

SandboxSession &SandboxFixture::shared()
{
    if (!m_shared)
        m_shared = std::make_unique<SandboxSession>(config(QStringLiteral("shared")));
    return *m_shared;
}

QString SandboxFixture::sharedPath(const QString &name)
{
    return shared().config().dataDirectory + QLatin1Char('/') + name;
}

ExecutionResult run(SandboxSession &session, const QString &code, ExecuteOptions options)
{
    return QCoro::waitFor(session.execute(code, options));
}

void addHostileFileRows()
{
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("reason");
    QTest::newRow("link to a file") << QStringLiteral("os.symlink('/etc/hostname', 'leak.txt')")
                                    << QStringLiteral("leak.txt") << QStringLiteral("symbolic link");
    QTest::newRow("link to the root") << QStringLiteral("os.symlink('/', 'everything')") << QStringLiteral("everything")
                                      << QStringLiteral("symbolic link");
    QTest::newRow("FIFO") << QStringLiteral("os.mkfifo('pipe.png')") << QStringLiteral("pipe.png")
                          << QStringLiteral("not a regular file");
    QTest::newRow("figure that is a link")
        << QStringLiteral("os.symlink('/etc/passwd', 'figures/leak.png')\n"
                          "kernel.emit({'id': kernel.current_id, 'event': 'display', 'mime': 'image/png', "
                          "'path': 'figures/leak.png'})")
        << QStringLiteral("figures/leak.png") << QStringLiteral("symbolic link");
    QTest::newRow("figure up and out")
        << QStringLiteral("kernel.emit({'id': kernel.current_id, 'event': 'display', 'mime': 'image/png', "
                          "'path': '../../../../etc/passwd'})")
        << QStringLiteral("../../../../etc/passwd") << QStringLiteral("goes up");
    QTest::newRow("figure that is no PNG")
        << QStringLiteral("open('figures/fake.png', 'w').write('text')\n"
                          "kernel.emit({'id': kernel.current_id, 'event': 'display', 'mime': 'image/png', "
                          "'path': 'figures/fake.png'})")
        << QStringLiteral("figures/fake.png") << QStringLiteral("not a PNG");
    QTest::newRow("forged file list")
        << QStringLiteral("kernel.emit({'id': kernel.current_id, 'event': 'result', 'status': 'ok', "
                          "'value': 'forged', 'error': None, 'duration_ms': 1, 'files': ['/etc/hostname']})\n"
                          "import time\ntime.sleep(0.5)")
        << QStringLiteral("/etc/hostname") << QStringLiteral("absolute");
}

void checkHostileFileRefused(SandboxFixture &sandbox, const QString &code, const QString &name, const QString &reason)
{
    const auto r =
        run(sandbox.shared(), forgeKernel + QStringLiteral("os.makedirs('figures', exist_ok=True)\n") + code);
    CHECK_STATUS(r, ExecutionResult::Status::Ok);
    QVERIFY2(r.figures.isEmpty(), qPrintable(r.figures.join(u',')));
    QVERIFY2(!r.files.contains(name), qPrintable(r.files.join(u',')));
    const QString refused = r.refused.join(u'\n');
    QVERIFY2(refused.contains(reason), qPrintable(describeExecution(r)));
    QCOMPARE(run(sandbox.shared(), QStringLiteral("'still usable'")).value, QStringLiteral("'still usable'"));
}

} // namespace Sandpiper::Test
