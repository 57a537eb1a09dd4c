#include <sandpiper/buildinfo.h>

#include <QCommandLineParser>
#include <QCoreApplication>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("sandpiper-cli"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(Sandpiper::BuildInfo::version));
    QCoreApplication::setOrganizationName(QStringLiteral("sandpiper"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate("main", "Sandpiper in the terminal."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.process(app);
    parser.showHelp(0);
}
