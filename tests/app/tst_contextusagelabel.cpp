// What the status bar says of the context a conversation takes.
#include <contextusagelabel.h>
#include <session/sessionstate.h>

#include <QTest>

using namespace Sandpiper;

class TestContextUsageLabel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void nothingBeforeTheFirstRequest()
    {
        ContextUsageLabel label;
        label.showUsage(SessionState{});
        QCOMPARE(label.text(), QString());
        QCOMPARE(label.toolTip(), QString());
        QCOMPARE(label.accessibleName(), QStringLiteral("Context used by this conversation"));
    }

    void theContextOfTheWindowInCompactCounts()
    {
        ContextUsageLabel label;
        SessionState state;
        state.contextTokens = 3140;
        state.contextWindow = 128000;
        state.tokens = 9000;
        label.showUsage(state);
        QCOMPARE(label.text(), QStringLiteral("context 3.1k / 128.0k"));
        QVERIFY(label.toolTip().contains(QLatin1String("9,000 tokens")));
        state.contextWindow = 0;
        state.contextTokens = 812;
        label.showUsage(state);
        QCOMPARE(label.text(), QStringLiteral("context 812"));
    }

    void theProvidersCountStandsAloneWithoutAMeasuredContext()
    {
        ContextUsageLabel label;
        SessionState state;
        state.tokens = 12345;
        label.showUsage(state);
        QCOMPARE(label.text(), QStringLiteral("12,345 tokens sent and received"));
    }
};

QTEST_MAIN(TestContextUsageLabel)
#include "tst_contextusagelabel.moc"
