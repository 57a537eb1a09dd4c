// How the kernel's container is asked for, without an engine: the hardening, the folder, the
// user namespace, the limits the engine enforces, the names, and what an early end means.
#include <sandbox/containerlauncher.h>

#include <QRegularExpression>
#include <QTest>

#include <unistd.h>

using namespace Sandpiper;

namespace {

SandboxConfig config(bool network = false)
{
    SandboxConfig config;
    config.image = QStringLiteral("sandpiper-sandbox:test");
    config.conversationId = QStringLiteral("conv/1 ü");
    config.dataDirectory = QStringLiteral("/srv/conversations/1");
    config.network = network;
    config.memory = QStringLiteral("1g");
    config.pidsLimit = 64;
    config.tmpSize = QStringLiteral("128m");
    config.diskLimitBytes = 4096;
    return config;
}

EngineFeatures rootlessPodman()
{
    EngineFeatures features;
    features.engine = EngineFeatures::Engine::Podman;
    features.rootless = true;
    features.memoryLimit = false;
    features.cpuLimit = false;
    return features;
}

// The value after OPTION in ARGUMENTS; empty when OPTION is not there.
QString valueOf(const QStringList &arguments, const QString &option)
{
    const qsizetype at = arguments.indexOf(option);
    return at < 0 || at + 1 >= arguments.size() ? QString() : arguments.at(at + 1);
}

} // namespace

class TestContainerLauncher : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void hardensEveryContainer()
    {
        const QStringList arguments = ContainerLauncher::hardeningArguments(config(), EngineFeatures{});
        QVERIFY(arguments.contains(QStringLiteral("--read-only")));
        QCOMPARE(valueOf(arguments, QStringLiteral("--network")), QStringLiteral("none"));
        QCOMPARE(valueOf(arguments, QStringLiteral("--cap-drop")), QStringLiteral("ALL"));
        QCOMPARE(valueOf(arguments, QStringLiteral("--security-opt")), QStringLiteral("no-new-privileges"));
        QCOMPARE(valueOf(arguments, QStringLiteral("--tmpfs")), QStringLiteral("/tmp:size=128m"));
        QCOMPARE(valueOf(arguments, QStringLiteral("--pids-limit")), QStringLiteral("64"));
        QCOMPARE(valueOf(arguments, QStringLiteral("--memory")), QStringLiteral("1g"));
        QCOMPARE(valueOf(arguments, QStringLiteral("--memory-swap")), QStringLiteral("1g"));
        QVERIFY(!valueOf(arguments, QStringLiteral("--cpus")).isEmpty());
        QCOMPARE(valueOf(arguments, QStringLiteral("--user")), ContainerLauncher::sandboxUser());
        // The label names this process, which the clean-up of leftovers goes by.
        QVERIFY(valueOf(arguments, QStringLiteral("--label"))
                    .endsWith(QLatin1Char(':') + QString::number(QCoreApplication::applicationPid())));
        QCOMPARE(
            valueOf(ContainerLauncher::hardeningArguments(config(true), EngineFeatures{}), QStringLiteral("--network")),
            QStringLiteral("bridge"));
    }

    void leavesOutTheLimitsTheEngineCannotEnforce()
    {
        const QStringList arguments = ContainerLauncher::hardeningArguments(config(), rootlessPodman());
        QVERIFY(!arguments.contains(QStringLiteral("--memory")));
        QVERIFY(!arguments.contains(QStringLiteral("--cpus")));
        QCOMPARE(valueOf(arguments, QStringLiteral("--pids-limit")), QStringLiteral("64"));
    }

    void mountsTheFolderOfALocalEngine()
    {
        const QString name = ContainerLauncher::containerName(config().conversationId);
        const QStringList arguments = ContainerLauncher::runArguments(config(), name, EngineFeatures{}, false);
        QCOMPARE(arguments.mid(0, 4), QStringList({QStringLiteral("run"), QStringLiteral("-i"), QStringLiteral("--rm"),
                                                   QStringLiteral("--init")}));
        QCOMPARE(valueOf(arguments, QStringLiteral("--pull")), QStringLiteral("never"));
        QCOMPARE(valueOf(arguments, QStringLiteral("--name")), name);
        QCOMPARE(valueOf(arguments, QStringLiteral("-v")), QStringLiteral("/srv/conversations/1:/mnt/data"));
        QVERIFY(arguments.contains(QStringLiteral("SANDPIPER_NETWORK=0")));
        QVERIFY(!arguments.contains(QStringLiteral("--userns=keep-id")));
        // The image runs the kernel that the resources hold, on the data folder.
        const qsizetype image = arguments.indexOf(config().image);
        QVERIFY(image > 0);
        QCOMPARE(arguments.mid(image + 1, 3),
                 QStringList({QStringLiteral("python3"), QStringLiteral("-u"), QStringLiteral("-c")}));
        QVERIFY(arguments.at(image + 4).contains(QStringLiteral("Sandpiper sandbox kernel")));
        QCOMPARE(arguments.mid(image + 5), QStringList({QStringLiteral("--data"), QStringLiteral("/mnt/data")}));
        // Rootless podman keeps the user's id for the mounted folder.
        QVERIFY(ContainerLauncher::runArguments(config(), name, rootlessPodman(), false)
                    .contains(QStringLiteral("--userns=keep-id")));
    }

    void givesARemoteEngineAFolderOfItsOwn()
    {
        const QStringList arguments =
            ContainerLauncher::runArguments(config(), QStringLiteral("c"), rootlessPodman(), true);
        QVERIFY(!arguments.contains(QStringLiteral("-v")));
        QVERIFY(!arguments.contains(QStringLiteral("--userns=keep-id")));
        const QString user = ContainerLauncher::sandboxUser();
        QVERIFY(arguments.contains(QStringLiteral("/mnt/data:exec,uid=%1,gid=%2,size=4096")
                                       .arg(user.section(QLatin1Char(':'), 0, 0), user.section(QLatin1Char(':'), 1))));

        // Its files come back on the kernel's output: the engine keeps no log of it. Locally it does.
        QCOMPARE(arguments.at(arguments.indexOf(QStringLiteral("--log-driver")) + 1), QStringLiteral("none"));
        QVERIFY(!ContainerLauncher::runArguments(config(), QStringLiteral("c"), rootlessPodman(), false)
                     .contains(QStringLiteral("--log-driver")));
    }

    void namesContainersSafely()
    {
        const QString name = ContainerLauncher::containerName(QStringLiteral("conv/1 ü") + QString(60, u'x'));
        QVERIFY2(QRegularExpression(QStringLiteral("^sandpiper-conv_1__x{32}-[0-9a-f]{6}$")).match(name).hasMatch(),
                 qPrintable(name));
        QVERIFY(ContainerLauncher::containerName(QStringLiteral("a")) !=
                ContainerLauncher::containerName(QStringLiteral("a")));
    }

    void runsTheKernelAsAnUnprivilegedUser()
    {
        const QString user = ContainerLauncher::sandboxUser();
        if (::getuid() == 0)
            QCOMPARE(user, QStringLiteral("65534:65534"));
        else
            QCOMPARE(user, QStringLiteral("%1:%2").arg(::getuid()).arg(::getgid()));
    }

    void saysWhyTheContainerEnded()
    {
        QVERIFY(ContainerLauncher::endCause(137, {}, QStringLiteral("1g")).contains(QStringLiteral("the limit is 1g")));
        QVERIFY(ContainerLauncher::endCause(139, {}, {}).contains(QStringLiteral("segmentation fault")));
        QVERIFY(ContainerLauncher::endCause(-2, {}, {}).contains(QStringLiteral("could not be started")));
        // The engine's own words, its last three lines, without the help footer.
        const QString cause = ContainerLauncher::endCause(
            125, "one\ntwo\nUnable to find image 'x'\nno such image\nSee 'docker run --help'.\n", {});
        QCOMPARE(cause,
                 QStringLiteral("Docker could not start the sandbox: two Unable to find image 'x' no such image"));
        QCOMPARE(ContainerLauncher::endCause(126, {}, {}),
                 QStringLiteral("Docker could not start the sandbox: exit code 126"));
        QCOMPARE(ContainerLauncher::endCause(3, {}, {}),
                 QStringLiteral("The Python kernel exited unexpectedly (exit code 3)."));
    }
};

QTEST_GUILESS_MAIN(TestContainerLauncher)
#include "tst_containerlauncher.moc"
