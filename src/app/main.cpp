#include "appearance.h"
#include "mainwindow.h"
#include "translations.h"

#include <agent/agentthread.h>
#include <mcp/mcpserverregistry.h>
#include <sandpiper/buildinfo.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QLocale>
#include <QMessageBox>
#include <cstdio>

namespace {

class FirstPaintWatcher : public QObject
{
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint) {
            std::printf("painted\n");
            std::fflush(stdout);
            QMetaObject::invokeMethod(qApp, &QCoreApplication::quit, Qt::QueuedConnection);
            watched->removeEventFilter(this);
        }
        return false;
    }
};

// Whether the command line asks only for the version or the help, which need no display.
bool asksOnlyForText(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        const QByteArrayView argument(argv[i]);
        if (argument == "--version" || argument == "-v" || argument == "--help" || argument == "-h" ||
            argument == "--help-all")
            return true;
    }
    return false;
}

} // namespace

int main(int argc, char *argv[])
{
    // Answered without a window: in a terminal without a display too.
    if (asksOnlyForText(argc, argv) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("sandpiper"));
    QApplication::setApplicationDisplayName(QStringLiteral("Sandpiper"));
    QApplication::setApplicationVersion(QString::fromLatin1(Sandpiper::BuildInfo::version));
    QApplication::setOrganizationName(QStringLiteral("sandpiper"));
    QApplication::setDesktopFileName(QStringLiteral("io.github.sandpiper.Sandpiper"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/sandpiper.svg")));

    Sandpiper::Translations::install(QLocale());

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Chat with language models that run code."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption setOption(QStringLiteral("set"),
                                       QApplication::translate("main", "Override a setting for this run."),
                                       QStringLiteral("KEY=VALUE"));
    const QCommandLineOption profileOption(QStringLiteral("profile"),
                                           QApplication::translate("main", "Keep settings and data in DIR."),
                                           QStringLiteral("DIR"));
    parser.addOptions({setOption, profileOption});
    parser.process(app);

    Sandpiper::Settings settings(parser.value(profileOption));
    for (const QString &assignment : parser.values(setOption)) {
        if (const QString error = settings.addOverride(assignment); !error.isEmpty()) {
            std::fprintf(stderr, "sandpiper: %s\n", qPrintable(error));
            return 2;
        }
    }

    // The language setting overrides the system's, which only served the command line's help.
    if (const QString language = settings.string(QStringLiteral("appearance/language"));
        language != QLatin1String("system")) {
        QLocale::setDefault(QLocale(language));
        Sandpiper::Translations::install(QLocale(language));
    }

    Sandpiper::applyAppearance(app, settings);
    Sandpiper::ConversationStore store(settings.dataDirectory());
    const auto opened = store.open();
    // The MCP servers start when a conversation first needs them; this outlives every agent.
    Sandpiper::McpServerRegistry mcp(
        {settings.mcpConfigFile(), settings.mcpLogFolder(),
         std::chrono::seconds(std::max(1, settings.integer(QStringLiteral("mcp/timeout_seconds"))))});
    int exitCode = 0;
    {
        Sandpiper::MainWindow window(&settings, &store);
        window.setMcpServers(&mcp);
        // scripts/bench ui measures the time from exec to this first paint.
        if (qEnvironmentVariableIsSet("SANDPIPER_EXIT_AFTER_FIRST_PAINT")) {
            auto *firstPaint = new FirstPaintWatcher(&window);
            window.installEventFilter(firstPaint);
        }
        window.show();
        // The app keeps running without its database (the store retries); the user is told why.
        if (!opened)
            QMessageBox::warning(&window, QApplication::translate("main", "Conversations"), opened.error().message);
        else if (!store.lastWarning().isEmpty())
            QMessageBox::information(&window, QApplication::translate("main", "Conversations"), store.lastWarning());
        exitCode = app.exec();
    }
    // The window is gone; the agents finish saving before the store closes.
    Sandpiper::AgentThread::waitForRetiredThreads(std::chrono::seconds(10));
    return exitCode;
}
