// Settings: every key survives a restart, overrides stay in memory, and a file Sandpiper
// cannot trust is left alone while the defaults take over.
#include <settings/settings.h>

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Sandpiper;

namespace {

QVariant sampleValue(const Settings::Spec &spec)
{
    switch (spec.type) {
    case Settings::Type::String:
        return QStringLiteral("value of %1").arg(spec.key);
    case Settings::Type::Integer:
        return spec.defaultValue.toInt() + 7;
    case Settings::Type::Number:
        return spec.defaultValue.toDouble() + 0.5;
    case Settings::Type::Boolean:
        return !spec.defaultValue.toBool();
    }
    return {};
}

QVariant asType(const QVariant &value, Settings::Type type)
{
    switch (type) {
    case Settings::Type::String:
        return value.toString();
    case Settings::Type::Integer:
        return value.toInt();
    case Settings::Type::Number:
        return value.toDouble();
    case Settings::Type::Boolean:
        return value.toBool();
    }
    return {};
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(bytes);
}

} // namespace

class TestSettings : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyKeySurvivesARestart()
    {
        QTemporaryDir profile;
        {
            Settings settings(profile.path());
            QVERIFY(settings.warning().isEmpty());
            for (const auto &spec : Settings::specs())
                settings.setValue(spec.key, sampleValue(spec));
            settings.setValue(QStringLiteral("providers/custom/headers"), QStringLiteral("X-A: 1\nX-B: 2"));
        }
        Settings reopened(profile.path());
        QVERIFY(reopened.warning().isEmpty());
        for (const auto &spec : Settings::specs())
            QCOMPARE(asType(reopened.value(spec.key), spec.type), sampleValue(spec));
        QCOMPARE(reopened.string(QStringLiteral("providers/custom/headers")), QStringLiteral("X-A: 1\nX-B: 2"));
        QVERIFY(readFile(reopened.configFile()).contains("version=1"));
    }

    void languageDefaultsToTheSystem()
    {
        QTemporaryDir profile;
        Settings settings(profile.path());
        QCOMPARE(settings.string(QStringLiteral("appearance/language")), QStringLiteral("system"));
    }

    void overridesAreNotSaved()
    {
        QTemporaryDir profile;
        {
            Settings settings(profile.path());
            settings.setValue(QStringLiteral("agent/max_tool_rounds"), 5);
            QString error;
            QVERIFY(settings.addOverride(QStringLiteral("agent/max_tool_rounds=9"), &error));
            QVERIFY(settings.addOverride(QStringLiteral("provider=ollama"), &error));
            QCOMPARE(settings.integer(QStringLiteral("agent/max_tool_rounds")), 9);
        }
        Settings reopened(profile.path());
        QCOMPARE(reopened.integer(QStringLiteral("agent/max_tool_rounds")), 5);
        QCOMPARE(reopened.string(QStringLiteral("provider")), QStringLiteral("openai"));
    }

    void anUntrustedFileIsKeptAndIgnored_data()
    {
        QTest::addColumn<QByteArray>("contents");
        QTest::newRow("binary") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x01\0", 20);
        QTest::newRow("not ini") << QByteArray("{\"provider\": \"ollama\", \"theme\": \"dark\"}\n");
        QTest::newRow("newer version") << QByteArray("[meta]\nversion=2\n\n[General]\nprovider=ollama\n");
    }

    void anUntrustedFileIsKeptAndIgnored()
    {
        QFETCH(QByteArray, contents);
        QTemporaryDir profile;
        const QString path = profile.filePath(QStringLiteral("sandpiper.conf"));
        writeFile(path, contents);
        {
            Settings settings(profile.path());
            QVERIFY(!settings.warning().isEmpty());
            QVERIFY2(settings.warning().contains(QLatin1String("sandpiper.conf")), qPrintable(settings.warning()));
            QCOMPARE(settings.string(QStringLiteral("provider")), QStringLiteral("openai"));
            QCOMPARE(settings.string(QStringLiteral("appearance/theme")), QStringLiteral("system"));
            // Changes hold for this run, never on disk.
            settings.setValue(QStringLiteral("appearance/theme"), QStringLiteral("dark"));
            QCOMPARE(settings.string(QStringLiteral("appearance/theme")), QStringLiteral("dark"));
        }
        QCOMPARE(readFile(path), contents);
    }
};

QTEST_GUILESS_MAIN(TestSettings)
#include "tst_settings.moc"
