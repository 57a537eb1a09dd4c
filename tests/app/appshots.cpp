// app-screenshots FOLDER THEME: drives a real main window (run it under Xvfb) through a
// conversation with the fake model and the real sandbox, and saves what a person sees:
// FOLDER/chat-THEME.png (table, highlighted code, an inline figure), approval-THEME.png (the
// approval card), inspector-THEME.png (stdout and stderr in the code inspector), table-THEME.png (a
// DataFrame as a native table) and progress-THEME.png (a tqdm progress bar while its cell runs).
#include "cardlookup.h"
#include "dockertest.h"
#include "fakellmserver.h"
#include "fakestreams.h"
#include "settingsoverrides.h"
#include "uiwait.h"

#include <agent/agentthread.h>
#include <appearance.h>
#include <chat/chatpage.h>
#include <chat/chatview.h>
#include <chat/messagewidget.h>
#include <chat/toolcallcard.h>
#include <codeinspector.h>
#include <composer.h>
#include <mainwindow.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>

#include <QApplication>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;

namespace {

bool waitFor(const std::function<bool()> &condition, int timeoutMs = 60000)
{
    if (!waitUntil(condition, timeoutMs))
        return false;
    QTest::qWait(400); // let the frame clock render the last text
    return true;
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    if (argc < 3) {
        std::fprintf(stderr, "usage: app-screenshots FOLDER light|dark\n");
        return 2;
    }
    const QString folder = QString::fromLocal8Bit(argv[1]);
    const QString theme = QString::fromLocal8Bit(argv[2]);
    qputenv("SANDPIPER_API_KEY", "sk-screenshots");
    FakeLlmServer fresh;
    fresh.listen();
    QTemporaryDir profile;
    Settings settings(profile.path());
    if (const QString refused =
            Test::applySettings(settings, fresh.providerSettings(QStringLiteral("gpt-4o-mini"))
                                              << QStringLiteral("sandbox/image=") + Test::sandboxImage()
                                              << QStringLiteral("appearance/theme=") + theme);
        !refused.isEmpty())
        qFatal("%s", qPrintable(refused));
    applyAppearance(app, settings);
    ConversationStore store(settings.dataDirectory());
    (void)store.open();

    // The scripted model: analyse with pandas and a plot, then a rich Markdown answer, then a
    // follow-up whose code waits for approval and writes to stdout and stderr.
    const QString analysis = QStringLiteral(
        "import pandas as pd\nimport matplotlib.pyplot as plt\n"
        "df = pd.DataFrame({'month': ['Jan', 'Feb', 'Mar', 'Apr'], 'revenue': [120, 135, 128, 160]})\n"
        "ax = df.plot(x='month', y='revenue', kind='bar', legend=False, color='#3d7be0', figsize=(6, 3.2))\n"
        "ax.set_title('Revenue by month (k€)')\ndf.describe().loc[['mean', 'max']]");
    fresh.enqueue(FS::openAiToolCalls(
        {{QStringLiteral("call_analysis"), QStringLiteral("execute_python_code"), codeArguments(analysis)}}, 6, {},
        FS::CallOrder::OneAfterAnother, QStringLiteral("I'll load the numbers and plot them.")));
    fresh.enqueue(FS::openAiText(QStringLiteral(
        "## Revenue summary\n\nRevenue grew **33%** from January to April:\n\n| Month | Revenue (k€) | Change |\n"
        "|---|---:|---:|\n| Jan | 120 | — |\n| Feb | 135 | +12.5% |\n| Mar | 128 | −5.2% |\n| Apr | 160 | +25.0% |\n\n"
        "To reproduce the growth figure:\n\n```python\ngrowth = (df.revenue.iloc[-1] / df.revenue.iloc[0] - 1) * 100\n"
        "print(f\"{growth:.0f}%\")  # 33%\n```\n\n> The March dip matches the holiday calendar.")));
    const QString spread = QStringLiteral("import statistics, sys\nvalues = [120, 135, 128, 160]\n"
                                          "print('mean :', statistics.mean(values))\n"
                                          "print('stdev:', round(statistics.stdev(values), 2))\n"
                                          "print('warning: only four months of data', file=sys.stderr)\n"
                                          "max(values) - min(values)");
    fresh.enqueue(FS::openAiToolCalls(
        {{QStringLiteral("call_spread"), QStringLiteral("execute_python_code"), codeArguments(spread)}}, 4, {},
        FS::CallOrder::OneAfterAnother, QStringLiteral("Let me measure the spread.")));
    fresh.enqueue(FS::openAiText(QStringLiteral("The mean is **135.75 k€** with a standard deviation of **17.35 k€**; "
                                                "April stands out.")));

    // Then, in a new conversation, a 1 234 567-row DataFrame as a table and a progress bar mid-run.
    const QString table =
        QStringLiteral("import numpy as np, pandas as pd\n"
                       "rng = np.random.default_rng(7)\n"
                       "n = 1_234_567\n"
                       "sales = pd.DataFrame({'order': np.arange(100001, 100001 + n),\n"
                       "    'date': pd.Timestamp('2024-01-01') + pd.to_timedelta(rng.integers(0, 365, n), unit='D'),\n"
                       "    'region': rng.choice(['North', 'South', 'East', 'West'], n),\n"
                       "    'product': rng.choice(['Kayak', 'Paddle', 'Tent', 'Lantern', 'Stove'], n),\n"
                       "    'units': rng.integers(1, 20, n), 'price': rng.choice([19.9, 49.5, 129.0, 349.0], n)})\n"
                       "sales['revenue'] = sales.units * sales.price\n"
                       "sales.loc[3, 'price'] = np.nan\n"
                       "sales");
    fresh.enqueue(FS::openAiToolCalls(
        {{QStringLiteral("call_table"), QStringLiteral("execute_python_code"), codeArguments(table)}}, 6, {},
        FS::CallOrder::OneAfterAnother, QStringLiteral("I'll load the orders into a DataFrame.")));
    fresh.enqueue(FS::openAiText(QStringLiteral("The file holds **1 234 567 orders** from 2024 across four regions; "
                                                "sort or copy the table, or save all of it as CSV or Excel.")));
    const QString progress = QStringLiteral("import time\nfrom tqdm import tqdm\n"
                                            "for fold in tqdm(range(60), desc='Cross-validating', ncols=70):\n"
                                            "    time.sleep(0.25)");
    fresh.enqueue(FS::openAiToolCalls(
        {{QStringLiteral("call_progress"), QStringLiteral("execute_python_code"), codeArguments(progress)}}, 4, {},
        FS::CallOrder::OneAfterAnother, QStringLiteral("Now the cross-validation; it takes a moment.")));
    fresh.enqueue(FS::openAiText(QStringLiteral("Done.")));

    MainWindow window(&settings, &store);
    window.resize(1440, 900);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return 1;
    QTest::qWait(1500);
    auto save = [&](const QString &name) {
        const QString path = QStringLiteral("%1/%2-%3.png").arg(folder, name, theme);
        window.grab().save(path);
        std::printf("%s\n", qPrintable(path));
    };

    window.send(QStringLiteral("Analyse revenue by month and plot it"));
    ChatView *chat = window.chatView();
    auto lastAnswerContains = [&](const QString &text) {
        const auto widgets = chat->messageWidgets();
        return !widgets.isEmpty() && widgets.constLast()->plainText().contains(text);
    };
    auto runButton = [](ToolCallCard *card) {
        for (QPushButton *button : card->findChildren<QPushButton *>()) {
            if (button->text() == QLatin1String("Run"))
                return button;
        }
        return static_cast<QPushButton *>(nullptr);
    };
    if (!waitFor([&] {
            return Test::newestCard(chat, QStringLiteral("call_analysis")) &&
                   Test::newestCard(chat, QStringLiteral("call_analysis"))->isAwaitingApproval();
        }))
        return 1;
    runButton(Test::newestCard(chat, QStringLiteral("call_analysis")))->click();
    if (!waitFor([&] { return lastAnswerContains(QStringLiteral("holiday")); }))
        return 1;
    QTest::qWait(1500);
    chat->page()->verticalScrollBar()->setValue(chat->page()->verticalScrollBar()->maximum());
    QTest::qWait(300);
    save(QStringLiteral("chat"));

    window.send(QStringLiteral("How spread out are the numbers?"));
    if (!waitFor([&] {
            return Test::newestCard(chat, QStringLiteral("call_spread")) &&
                   Test::newestCard(chat, QStringLiteral("call_spread"))->isAwaitingApproval();
        }))
        return 1;
    QTest::qWait(500);
    save(QStringLiteral("approval"));
    runButton(Test::newestCard(chat, QStringLiteral("call_spread")))->click();
    if (!waitFor([&] { return window.inspector()->standardError()->toPlainText().contains(QLatin1String("warning")); }))
        return 1;
    QTest::qWait(1500);
    save(QStringLiteral("inspector"));

    window.newConversation();
    window.send(QStringLiteral("Load the orders and show me what is in them"));
    auto approve = [&](const QString &callId) {
        if (!waitFor(
                [&] { return Test::newestCard(chat, callId) && Test::newestCard(chat, callId)->isAwaitingApproval(); }))
            return false;
        runButton(Test::newestCard(chat, callId))->click();
        return true;
    };
    if (!approve(QStringLiteral("call_table")) ||
        !waitFor([&] { return lastAnswerContains(QStringLiteral("save all of it")); }))
        return 1;
    QTest::qWait(1200);
    chat->page()->verticalScrollBar()->setValue(chat->page()->verticalScrollBar()->maximum());
    QTest::qWait(300);
    save(QStringLiteral("table"));

    window.send(QStringLiteral("Cross-validate the model"));
    if (!approve(QStringLiteral("call_progress")))
        return 1;
    // Mid-run: the bar is past 40 %.
    const QRegularExpression percent(QStringLiteral("Cross-validating:\\s+(\\d+)%"));
    if (!waitUntil([&] {
            ToolCallCard *card = Test::newestCard(chat, QStringLiteral("call_progress"));
            if (!card)
                return false;
            for (QLabel *label : card->findChildren<QLabel *>()) {
                const QRegularExpressionMatch match = percent.match(label->text());
                if (label->isVisible() && match.hasMatch() && match.captured(1).toInt() >= 40)
                    return true;
            }
            return false;
        }))
        return 1;
    chat->page()->verticalScrollBar()->setValue(chat->page()->verticalScrollBar()->maximum());
    QTest::qWait(300);
    save(QStringLiteral("progress"));
    // The agents finish with the store before it goes.
    window.close();
    AgentThread::waitForRetiredThreads(std::chrono::seconds(20));
    return 0;
}
