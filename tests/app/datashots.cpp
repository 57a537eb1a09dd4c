// data-screenshots FOLDER THEME: drives a real main window (run it under Xvfb) with the fake model
// and the real sandbox, and saves FOLDER/table-THEME.png (a DataFrame as a native table in the
// chat) and FOLDER/progress-THEME.png (a tqdm progress bar while its cell runs).
#include "dockertest.h"
#include "fakellmserver.h"
#include "fakestreams.h"

#include <appearance.h>
#include <chat/chatpage.h>
#include <chat/chatview.h>
#include <chat/datatableview.h>
#include <chat/messagewidget.h>
#include <chat/toolcallcard.h>
#include <mainwindow.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>

#include <QApplication>
#include <QDockWidget>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;

namespace {

bool waitUntil(const std::function<bool()> &condition, int timeoutMs = 90000)
{
    QElapsedTimer timer;
    timer.start();
    while (!condition()) {
        if (timer.elapsed() > timeoutMs)
            return false;
        QTest::qWait(50);
    }
    return true;
}

QString codeArguments(const QString &code)
{
    return QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("code"), code}}).toJson(QJsonDocument::Compact));
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    if (argc < 3) {
        std::fprintf(stderr, "usage: data-screenshots FOLDER light|dark\n");
        return 2;
    }
    const QString folder = QString::fromLocal8Bit(argv[1]);
    const QString theme = QString::fromLocal8Bit(argv[2]);
    qputenv("SANDPIPER_API_KEY", "sk-screenshots");
    FakeLlmServer model;
    model.listen();
    QTemporaryDir profile;
    Settings settings(profile.path());
    QString error;
    for (const QString &assignment :
         QStringList{QStringLiteral("provider=custom"),
                     QStringLiteral("providers/custom/base_url=") + model.baseUrl().toString(),
                     QStringLiteral("providers/custom/model=gpt-4o-mini"),
                     QStringLiteral("sandbox/image=") + Test::sandboxImage(),
                     QStringLiteral("approval/execute_python_code=auto"), QStringLiteral("appearance/theme=") + theme})
        settings.addOverride(assignment, &error);
    applyAppearance(app, settings);
    ConversationStore store(settings.dataDirectory());
    (void)store.open();

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
    model.enqueue(FS::openAiToolCalls(
        {{QStringLiteral("call_table"), QStringLiteral("execute_python_code"), codeArguments(table)}}, 6, {},
        FS::CallOrder::OneAfterAnother, QStringLiteral("I'll load the orders into a DataFrame.")));
    model.enqueue(FS::openAiText(QStringLiteral("The file holds **1 234 567 orders** from 2024 across four regions; "
                                                "sort or copy the table, or save all of it as CSV or Excel.")));
    const QString progress = QStringLiteral("import time\nfrom tqdm import tqdm\n"
                                            "for fold in tqdm(range(60), desc='Cross-validating', ncols=70):\n"
                                            "    time.sleep(0.25)");
    model.enqueue(FS::openAiToolCalls(
        {{QStringLiteral("call_progress"), QStringLiteral("execute_python_code"), codeArguments(progress)}}, 4, {},
        FS::CallOrder::OneAfterAnother, QStringLiteral("Now the cross-validation; it takes a moment.")));
    model.enqueue(FS::openAiText(QStringLiteral("Done.")));

    MainWindow window(&settings, &store);
    window.resize(1440, 900);
    window.inspectorDock()->hide();
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return 1;
    QTest::qWait(1500);
    auto save = [&](const QString &name) {
        const QString path = QStringLiteral("%1/%2-%3.png").arg(folder, name, theme);
        window.grab().save(path);
        std::printf("%s\n", qPrintable(path));
    };
    ChatView *chat = window.chatView();
    auto lastAnswerContains = [&](const QString &text) {
        const auto widgets = chat->messageWidgets();
        return !widgets.isEmpty() && widgets.constLast()->plainText().contains(text);
    };

    window.send(QStringLiteral("Load the orders and show me what is in them"));
    if (!waitUntil([&] { return lastAnswerContains(QStringLiteral("save all of it")); }))
        return 1;
    QTest::qWait(1200);
    chat->page()->verticalScrollBar()->setValue(chat->page()->verticalScrollBar()->maximum());
    QTest::qWait(300);
    save(QStringLiteral("table"));

    window.send(QStringLiteral("Cross-validate the model"));
    // Mid-run: the bar is past 40 %.
    const QRegularExpression percent(QStringLiteral("Cross-validating:\\s+(\\d+)%"));
    if (!waitUntil([&] {
            ToolCallCard *card = chat->card(QStringLiteral("call_progress"));
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
    QTest::qWait(300);
    chat->page()->verticalScrollBar()->setValue(chat->page()->verticalScrollBar()->maximum());
    QTest::qWait(300);
    save(QStringLiteral("progress"));
    return 0;
}
