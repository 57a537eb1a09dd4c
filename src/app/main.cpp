#include "mainwindow.h"

#include <sandpiper/buildinfo.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QLocale>
#include <QTranslator>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("sandpiper"));
    QApplication::setApplicationDisplayName(QStringLiteral("Sandpiper"));
    QApplication::setApplicationVersion(QString::fromLatin1(Sandpiper::BuildInfo::version));
    QApplication::setOrganizationName(QStringLiteral("sandpiper"));

    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/sandpiper.svg")));

    QTranslator translator;
    if (translator.load(QLocale(), QStringLiteral("sandpiper"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QApplication::installTranslator(&translator);

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Chat with language models that run code."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.process(app);

    Sandpiper::MainWindow window;
    window.show();
    return app.exec();
}
