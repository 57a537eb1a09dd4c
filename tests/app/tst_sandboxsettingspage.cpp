// The settings' Sandbox tab on its own: limits and the engine set as a user would, saved and
// read back from the file; an engine that is none; the check and the build against an engine
// where nothing listens (no Docker engine needed).
#include "dockertest.h"
#include "settingsprofile.h"
#include "widgetlookup.h"

#include <settingspages/sandboxsettingspage.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QToolButton>

using namespace Sandpiper;
using namespace Sandpiper::Test;

class TestSandboxSettingsPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void savesTheLimitsAndTheEngine()
    {
        SettingsProfile profile;
        {
            SandboxSettingsPage page(profile.settings());
            findNamed<QLineEdit>(&page, QStringLiteral("Sandbox image"))->setText(QStringLiteral(" my/image:2 "));
            findNamed<QComboBox>(&page, QStringLiteral("Docker engine"))
                ->setEditText(QStringLiteral("ssh://me@box.example"));
            findNamed<QLineEdit>(&page, QStringLiteral("Memory limit"))->setText(QStringLiteral("3g"));
            findNamed<QDoubleSpinBox>(&page, QStringLiteral("CPUs"))->setValue(1.5);
            findNamed<QSpinBox>(&page, QStringLiteral("Execution timeout in seconds"))->setValue(90);
            findNamed<QCheckBox>(&page, QStringLiteral("Network access by default"))->setChecked(true);
            findNamed<QCheckBox>(&page, QStringLiteral("Restore variables automatically"))->setChecked(false);
            findNamed<QSpinBox>(&page, QStringLiteral("Stop idle sandboxes after minutes"))->setValue(7);
            findNamed<QSpinBox>(&page, QStringLiteral("Disk space for a conversation's files in MiB"))->setValue(512);
            findNamed<QSpinBox>(&page, QStringLiteral("Figures kept per run"))->setValue(3);
            QVERIFY(page.check());
            page.save();
        }
        const auto reopened = profile.reopened();
        QCOMPARE(reopened->string(QStringLiteral("sandbox/image")), QStringLiteral("my/image:2"));
        QCOMPARE(reopened->engine().host, QStringLiteral("ssh://me@box.example"));
        const SandboxConfig sandbox = reopened->sandbox(QStringLiteral("1"), QStringLiteral("folder"));
        QCOMPARE(sandbox.memory, QStringLiteral("3g"));
        QCOMPARE(sandbox.cpus, 1.5);
        QCOMPARE(sandbox.network, true);
        QCOMPARE(sandbox.diskLimitBytes, qint64(512) << 20);
        QCOMPARE(sandbox.maxFigures, 3);
        QCOMPARE(reopened->integer(QStringLiteral("sandbox/timeout_seconds")), 90);
        QCOMPARE(reopened->integer(QStringLiteral("sandbox/idle_stop_minutes")), 7);
        QCOMPARE(reopened->boolean(QStringLiteral("sandbox/restore_variables")), false);

        SandboxSettingsPage again(reopened.get());
        QCOMPARE(findNamed<QComboBox>(&again, QStringLiteral("Docker engine"))->currentText(),
                 QStringLiteral("ssh://me@box.example"));
        QCOMPARE(findNamed<QSpinBox>(&again, QStringLiteral("Figures kept per run"))->value(), 3);
        QCOMPARE(findNamed<QLineEdit>(&again, QStringLiteral("Memory limit"))->text(), QStringLiteral("3g"));
    }

    void anEngineThatIsNoneIsRefused()
    {
        SettingsProfile profile;
        SandboxSettingsPage page(profile.settings());
        QSignalSpy attention(&page, &SandboxSettingsPage::needsAttention);
        auto *engine = findNamed<QComboBox>(&page, QStringLiteral("Docker engine"));
        engine->setEditText(QStringLiteral("not a context!"));
        QVERIFY(!page.check());
        QCOMPARE(attention.size(), 1);
        const QList<QLabel *> labels = page.findChildren<QLabel *>();
        QVERIFY(std::any_of(labels.cbegin(), labels.cend(), [](QLabel *label) {
            return !label->isHidden() && label->text().contains(QStringLiteral("“not a context!”"));
        }));
        // The docker command's own choice is always one.
        engine->setCurrentIndex(0);
        QVERIFY(page.check());
    }

    void theCheckSaysWhenTheEngineDoesNotAnswer()
    {
        SettingsProfile profile;
        SandboxSettingsPage page(profile.settings());
        const QString engine = silentEngineAddress();
        findNamed<QComboBox>(&page, QStringLiteral("Docker engine"))->setEditText(engine);
        auto *check = findNamed<QPushButton>(&page, QStringLiteral("Check the Docker engine"));
        auto *status = findNamed<QLabel>(&page, QStringLiteral("Docker engine status"));
        QCOMPARE(status->text(), QStringLiteral("Not checked yet."));
        check->click();
        QVERIFY(!check->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(check->isEnabled(), 30000);
        QVERIFY2(status->text().startsWith(engine + QStringLiteral(": does not answer (")), qPrintable(status->text()));
    }

    // Another engine is sent the image from this machine, which lacks it here; then it is built
    // there, in vain. The log opens to say why.
    void aFailedBuildShowsItsLog()
    {
        SettingsProfile profile;
        SandboxSettingsPage page(profile.settings());
        findNamed<QComboBox>(&page, QStringLiteral("Docker engine"))->setEditText(silentEngineAddress());
        findNamed<QLineEdit>(&page, QStringLiteral("Sandbox image"))->setText(QStringLiteral("sandpiper-test:absent"));
        auto *build = findNamed<QPushButton>(&page, QStringLiteral("Build the sandbox image"));
        auto *logToggle = findNamed<QToolButton>(&page, QStringLiteral("Show build log"));
        QVERIFY(!logToggle->isChecked());
        build->click();
        QVERIFY(!build->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(build->isEnabled(), 60000);
        const QList<QLabel *> labels = page.findChildren<QLabel *>();
        QVERIFY(std::any_of(labels.cbegin(), labels.cend(), [](QLabel *label) {
            return label->text().startsWith(QLatin1String("The build failed: ")) && !label->styleSheet().isEmpty();
        }));
        QVERIFY(logToggle->isChecked());
        QVERIFY(!findNamed<QPlainTextEdit>(&page, QStringLiteral("Image build log"))->isHidden());
        QVERIFY(findNamed<QWidget>(&page, QStringLiteral("Image build progress"))->isHidden());
    }
};

QTEST_MAIN(TestSandboxSettingsPage)
#include "tst_sandboxsettingspage.moc"
