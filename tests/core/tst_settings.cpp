// Settings: every key survives a restart, overrides stay in memory, and a file Sandpiper
// cannot trust is left alone while the defaults take over.
#include <session/agentsettings.h>
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

    void theSandboxHasADiskLimitAndAFigureLimit()
    {
        QTemporaryDir profile;
        Settings settings(profile.path());
        SandboxConfig config = settings.sandbox(QStringLiteral("7"), profile.path());
        QCOMPARE(config.diskLimitBytes, qint64(1) << 30);
        QCOMPARE(config.minFreeDiskBytes, qint64(1) << 30);
        QCOMPARE(config.maxFigures, 20);
        QCOMPARE(settings.addOverride(QStringLiteral("sandbox/disk_limit_mb=0")), QString());
        QCOMPARE(settings.addOverride(QStringLiteral("sandbox/max_figures=-3")), QString());
        config = settings.sandbox(QStringLiteral("7"), profile.path());
        QCOMPARE(config.diskLimitBytes, 0); // no limit
        QCOMPARE(config.maxFigures, 0);
        QCOMPARE(settings.addOverride(QStringLiteral("sandbox/max_figures=100000")), QString());
        QCOMPARE(settings.sandbox(QStringLiteral("7"), profile.path()).maxFigures, 500);
    }

    void overridesAreNotSaved()
    {
        QTemporaryDir profile;
        {
            Settings settings(profile.path());
            settings.setValue(QStringLiteral("agent/max_tool_rounds"), 5);
            QCOMPARE(settings.addOverride(QStringLiteral("agent/max_tool_rounds=9")), QString());
            QCOMPARE(settings.addOverride(QStringLiteral("provider=ollama")), QString());
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

    void reasoningGoesBackAsThePresetSays_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("setting");
        QTest::addColumn<bool>("sendBack");
        // llama.cpp and vLLM need it for gpt-oss between tool rounds; DeepSeek's API rejects it.
        QTest::newRow("llama.cpp") << "llamacpp"
                                   << "" << true;
        QTest::newRow("vllm") << "vllm"
                              << "" << true;
        QTest::newRow("deepseek") << "deepseek"
                                  << "" << false;
        QTest::newRow("openai") << "openai"
                                << "" << false;
        QTest::newRow("ollama") << "ollama"
                                << "" << false;
        QTest::newRow("custom") << "custom"
                                << "" << false;
        QTest::newRow("llama.cpp, turned off") << "llamacpp"
                                               << "false" << false;
        QTest::newRow("custom, turned on") << "custom"
                                           << "true" << true;
    }

    void reasoningGoesBackAsThePresetSays()
    {
        QFETCH(QString, preset);
        QFETCH(QString, setting);
        QFETCH(bool, sendBack);
        QTemporaryDir profile;
        Settings settings(profile.path());
        settings.setValue(QStringLiteral("provider"), preset);
        settings.setValue(QStringLiteral("providers/%1/reasoning_back").arg(preset), setting);
        QCOMPARE(settings.provider().sendReasoningBack, sendBack);
        QCOMPARE(AgentSettings::read(settings).provider.sendReasoningBack, sendBack);
    }

    void textToolCallsAndContextWindowsPerProvider()
    {
        QTemporaryDir profile;
        Settings settings(profile.path());
        settings.setValue(QStringLiteral("provider"), QStringLiteral("ollama"));
        QVERIFY(settings.provider().recoverTextToolCalls); // on unless turned off
        QVERIFY(settings.provider().contextWindows.isEmpty());
        QCOMPARE(settings.addOverride(QStringLiteral("providers/ollama/text_tool_calls=false")), QString());
        QVERIFY(!settings.provider().recoverTextToolCalls);
        settings.setValue(QStringLiteral("providers/ollama/context_windows"),
                          QStringLiteral("qwen2.5:7b=32768\nllama3.1 = 8k\n\nbroken line\nzero=0\n*=4096"));
        const QHash<QString, qint64> windows = settings.provider().contextWindows;
        QCOMPARE(windows.size(), 3);
        QCOMPARE(windows.value(QStringLiteral("qwen2.5:7b")), 32768);
        QCOMPARE(windows.value(QStringLiteral("llama3.1")), 8192);
        QCOMPARE(windows.value(QStringLiteral("*")), 4096);
        QCOMPARE(Settings::parseContextWindows(Settings::formatContextWindows(windows)), windows);
        // The preset's own window, for when the server does not say.
        settings.setValue(QStringLiteral("provider"), QStringLiteral("anthropic"));
        QCOMPARE(settings.provider().defaultContextWindow, 200000);
    }
};

QTEST_GUILESS_MAIN(TestSettings)
#include "tst_settings.moc"
