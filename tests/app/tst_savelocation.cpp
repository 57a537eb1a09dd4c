// Where the save and open dialogs start: the folder chosen last in this run, else Documents
// (Pictures for images), never the folder the app was started from.
#include <savelocation.h>

#include <QDir>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Sandpiper;

class TestSaveLocation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void startsInDocumentsThenWhereTheUserSavedLast()
    {
        QStandardPaths::setTestModeEnabled(true);
        const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
        QCOMPARE(SaveLocation::suggest(QStringLiteral("chat.md")), QDir(documents).filePath(QStringLiteral("chat.md")));
        const QString pictures = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
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
};

QTEST_GUILESS_MAIN(TestSaveLocation)
#include "tst_savelocation.moc"
