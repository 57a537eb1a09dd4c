// The Simplified Chinese translation is complete, keeps every placeholder and accelerator,
// and is built into the app.
#include "translations.h"

#include <QCoreApplication>
#include <QFile>
#include <QRegularExpression>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>

class TestTranslations : public QObject
{
    Q_OBJECT

    struct Message {
        QString context;
        QString source;
        QString translation;
        bool unfinished = false;
        bool numerus = false;
    };

    static QList<Message> readTs(const QString &path)
    {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return {};
        QXmlStreamReader xml(&file);
        QList<Message> messages;
        QString context;
        Message current;
        while (!xml.atEnd()) {
            xml.readNext();
            if (!xml.isStartElement())
                continue;
            const auto name = xml.name();
            if (name == QLatin1String("name"))
                context = xml.readElementText();
            else if (name == QLatin1String("message")) {
                current = Message{
                    context, {}, {}, false, xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes")};
            } else if (name == QLatin1String("source")) {
                current.source = xml.readElementText();
            } else if (name == QLatin1String("translation")) {
                const auto type = xml.attributes().value(QLatin1String("type"));
                current.unfinished = !type.isEmpty();
                current.translation = xml.readElementText(QXmlStreamReader::IncludeChildElements);
                messages << current;
            }
        }
        return xml.hasError() ? QList<Message>() : messages;
    }

    static QStringList placeholders(const QString &text)
    {
        static const QRegularExpression pattern(QStringLiteral("%L?[0-9n]"));
        QStringList found;
        for (auto it = pattern.globalMatch(text); it.hasNext();)
            found << it.next().captured();
        found.sort();
        return found;
    }

private Q_SLOTS:
    void chineseIsComplete()
    {
        const QList<Message> messages = readTs(QStringLiteral(SANDPIPER_TS_DIR "/sandpiper_zh_CN.ts"));
        QVERIFY2(messages.size() > 100, "the translation file is missing or not valid XML");
        QStringList problems;
        static const QRegularExpression accelerator(QStringLiteral("&([A-Za-z])"));
        for (const Message &m : messages) {
            const QString where = QStringLiteral("%1: \"%2\"").arg(m.context, m.source.left(60));
            if (m.unfinished || m.translation.trimmed().isEmpty()) {
                problems << where + QStringLiteral(" is not translated");
                continue;
            }
            if (placeholders(m.source) != placeholders(m.translation) && !m.numerus)
                problems << where + QStringLiteral(" has other placeholders");
            const auto key = accelerator.match(m.source);
            if (key.hasMatch() && !m.translation.contains(QLatin1Char('&') + key.captured(1)))
                problems << where + QStringLiteral(" lost its accelerator");
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    void englishPluralsAreComplete()
    {
        // Every text that counts with %n has its English singular and plural.
        const QList<Message> messages = readTs(QStringLiteral(SANDPIPER_TS_DIR "/sandpiper_en.ts"));
        QVERIFY2(!messages.isEmpty(), "the English plural forms are missing");
        QStringList problems;
        for (const Message &m : messages) {
            if (m.unfinished || m.translation.trimmed().isEmpty() || !m.translation.contains(QLatin1String("%n")))
                problems << QStringLiteral("%1: \"%2\" has no English plural forms").arg(m.context, m.source.left(60));
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    void englishCountsInWords()
    {
        QVERIFY(!Sandpiper::Translations::install(QLocale(QStringLiteral("en"))));
        const auto skipped = [](int n) {
            return QCoreApplication::translate("Sandpiper::KernelRestore", "%n cell(s) that write files were skipped.",
                                               "", n);
        };
        QCOMPARE(skipped(1), QStringLiteral("1 cell that writes files was skipped."));
        QCOMPARE(skipped(3), QStringLiteral("3 cells that write files were skipped."));
        // A language without a translation of its own gets the English forms, not "(s)".
        QVERIFY(!Sandpiper::Translations::install(QLocale(QStringLiteral("de"))));
        QCOMPARE(skipped(2), QStringLiteral("2 cells that write files were skipped."));
        // A translation comes first.
        QVERIFY(Sandpiper::Translations::install(QLocale(QStringLiteral("zh_CN"))));
        QCOMPARE(skipped(2), QStringLiteral("跳过了 2 个写入文件的单元格。"));
        Sandpiper::Translations::install(QLocale(QStringLiteral("en")));
    }

    void theTranslationIsBuiltIn()
    {
        QTranslator translator;
        QVERIFY(translator.load(QStringLiteral(":/i18n/sandpiper_zh_CN.qm")));
        const QString send = translator.translate("Sandpiper::Composer", "Send");
        QVERIFY(!send.isEmpty());
        QVERIFY(send != QLatin1String("Send"));
    }

    void qtsOwnStringsComeInTheSameLanguage()
    {
        // Standard buttons and dialogs are Qt's strings: they follow the app's language.
        QVERIFY(Sandpiper::Translations::install(QLocale(QStringLiteral("zh_CN"))));
        QCOMPARE(QCoreApplication::translate("Sandpiper::Composer", "Send"), QStringLiteral("发送"));
        const QString cancel = QCoreApplication::translate("QPlatformTheme", "Cancel");
        QVERIFY2(cancel != QLatin1String("Cancel"), "Qt's translations (qt6-translations-l10n) were not loaded");
        QVERIFY(Sandpiper::Translations::install(QLocale(QStringLiteral("en"))) == false);
        QCOMPARE(QCoreApplication::translate("QPlatformTheme", "Cancel"), QStringLiteral("Cancel"));
    }
};

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
