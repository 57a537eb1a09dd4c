// Where the save and open dialogs start: the folder chosen last in this run, else Documents
// (Pictures for images), else home, never the folder the app was started from. Each test runs in
// a home of its own.
#include <savelocation.h>

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Sandpiper;

class TestSaveLocation : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_home;
    QByteArray m_realHome;

private Q_SLOTS:
    void initTestCase()
    {
        m_realHome = qgetenv("HOME");
        // No user-dirs file naming other folders.
        qunsetenv("XDG_CONFIG_HOME");
    }

    void init()
    {
        m_home = std::make_unique<QTemporaryDir>();
        qputenv("HOME", QFile::encodeName(m_home->path()));
    }

    void cleanupTestCase() { qputenv("HOME", m_realHome); }

    void startsInDocumentsThenWhereTheUserSavedLast()
    {
        const QString documents = m_home->filePath(QStringLiteral("Documents"));
        const QString pictures = m_home->filePath(QStringLiteral("Pictures"));
        QVERIFY(QDir().mkpath(documents) && QDir().mkpath(pictures));
        QCOMPARE(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation), documents);
        QCOMPARE(SaveLocation::suggest(QStringLiteral("chat.md")), QDir(documents).filePath(QStringLiteral("chat.md")));
        QCOMPARE(SaveLocation::suggest(QStringLiteral("chart.png"), QStandardPaths::PicturesLocation),
                 QDir(pictures).filePath(QStringLiteral("chart.png")));

        {
            QTemporaryDir chosen;
            SaveLocation::remember(chosen.filePath(QStringLiteral("report.json")));
            QCOMPARE(SaveLocation::suggest(QStringLiteral("next.ipynb")),
                     chosen.filePath(QStringLiteral("next.ipynb")));
            QCOMPARE(SaveLocation::suggest(QStringLiteral("chart.png"), QStandardPaths::PicturesLocation),
                     chosen.filePath(QStringLiteral("chart.png")));
        }
        // That folder is gone: back to Documents.
        QCOMPARE(SaveLocation::suggest(QStringLiteral("chat.md")), QDir(documents).filePath(QStringLiteral("chat.md")));
    }

    // A dialog told to start in a folder that is not there starts in the working folder instead.
    void aFreshAccountWithoutDocumentsStartsAtHome()
    {
        QVERIFY(!QFileInfo::exists(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)));
        QCOMPARE(SaveLocation::suggest(QStringLiteral("chat.md")), m_home->filePath(QStringLiteral("chat.md")));
        QCOMPARE(SaveLocation::suggest(QStringLiteral("chart.png"), QStandardPaths::PicturesLocation),
                 m_home->filePath(QStringLiteral("chart.png")));
    }
};

QTEST_GUILESS_MAIN(TestSaveLocation)
#include "tst_savelocation.moc"
