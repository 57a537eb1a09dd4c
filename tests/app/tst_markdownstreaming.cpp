// A streamed answer, however its pieces were cut, ends up as the very document the same Markdown
// shows when it is rendered at once: same text, same block and character formats, same lists,
// tables, code and formulas, same HTML. Rendering only what changed while it streams must never
// change what the user sees.
#include <chat/chatview.h>
#include <chat/markdownview.h>
#include <chat/messagewidget.h>
#include <session/agentsettings.h>
#include <session/conversationsession.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>

#include <QApplication>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextList>
#include <QTextTable>

using namespace Sandpiper;

namespace {

// Headings, lists, a table, code, formulas and quotes, in the shapes models write them.
const QString mixed = QStringLiteral(
    "# Quarterly report\n\n"
    "Revenue grew by **12%** in Q3, with `pandas` doing the sums and $x^2 + y^2 = z^2$ holding as ever.\n"
    "A second line of the same paragraph, costing $5 and $10.\n\n"
    "Setext title\n"
    "------------\n\n"
    "- first item with $a_1$\n"
    "- second item\n"
    "  continued on its own line\n"
    "  - nested item\n"
    "- [x] a task done\n\n"
    "1. loose one\n\n"
    "2. loose two\n\n"
    "   with a second paragraph\n\n"
    "| Quarter | Revenue | Note |\n"
    "|---|---:|:---:|\n"
    "| Q1 | 120 | `flat` |\n"
    "| Q2 | 135 | $\\Delta = 15$ |\n"
    "| Q3 | 151 | **best** |\n\n"
    "```python\n"
    "import pandas as pd\n"
    "\n"
    "df = pd.read_csv('q3.csv')  # $not math$\n"
    "\n"
    "print(df.revenue.sum())\n"
    "```\n\n"
    "$$\n"
    "\\int_0^1 x\\,dx = \\frac{1}{2}\n"
    "$$\n\n"
    "Euler on display: $$e^{i\\pi} + 1 = 0$$ and inline \\(a + b\\) and \\[c^2\\].\n\n"
    "> A quote with $q$\n"
    "> over two lines.\n\n"
    "````markdown\n"
    "Showing a fence:\n"
    "\n"
    "```js\n"
    "let x = 1;\n"
    "```\n"
    "\n"
    "```\n"
    "\n"
    "still the outer fence\n"
    "````\n\n"
    "~~~\n"
    "tilde fence with ``` inside\n"
    "\n"
    "~~~\n\n"
    "    indented code\n"
    "\n"
    "    more indented code\n\n"
    "***\n\n"
    "## Last words\n\n"
    "The end, with a [link](https://example.org) and ~~strike~~.");

// An answer whose last block is a table, and one that ends inside an open code fence.
const QString endsInTable = QStringLiteral("Results:\n\n| a | b |\n|---|---|\n| 1 | $x$ |\n| 2 | 3 |");
const QString endsInOpenFence = QStringLiteral("Code:\n\n```python\nx = 1\n\ny = 2");

// Every property of FORMAT but the index of its object (a list, a table), which depends on the
// order objects were made in, not on what the user sees.
QString propertiesOf(const QTextFormat &format)
{
    QStringList out;
    const QMap<int, QVariant> properties = format.properties();
    for (auto it = properties.cbegin(); it != properties.cend(); ++it) {
        if (it.key() == QTextFormat::ObjectIndex)
            continue;
        QString value;
        QDebug(&value).nospace() << it.value();
        out << QStringLiteral("%1=%2").arg(it.key()).arg(value);
    }
    return out.join(QLatin1Char(' '));
}

// DOCUMENT line by line: each block with where it stands (table cell, list item), its formats and
// its fragments with theirs.
QStringList describe(const QTextDocument &document)
{
    QStringList lines;
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
        QString where;
        const QTextCursor cursor(block);
        if (const QTextTable *table = cursor.currentTable()) {
            const QTextTableCell cell = table->cellAt(cursor);
            where += QStringLiteral("table %1x%2 [%3] cell %4,%5 ")
                         .arg(table->rows())
                         .arg(table->columns())
                         .arg(propertiesOf(table->format()))
                         .arg(cell.row())
                         .arg(cell.column());
        }
        if (const QTextList *list = block.textList())
            where +=
                QStringLiteral("list [%1] item %2 ").arg(propertiesOf(list->format())).arg(list->itemNumber(block));
        lines << QStringLiteral("block %1: %2{%3} {%4}")
                     .arg(block.blockNumber())
                     .arg(where, propertiesOf(block.blockFormat()), propertiesOf(block.charFormat()));
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            lines
                << QStringLiteral("  \"%1\" {%2}").arg(it.fragment().text(), propertiesOf(it.fragment().charFormat()));
        }
    }
    return lines;
}

// Fails with the first line where the two documents differ.
void compareDocuments(const QTextDocument &streamed, const QTextDocument &whole)
{
    const QStringList got = describe(streamed);
    const QStringList expected = describe(whole);
    for (qsizetype i = 0; i < std::min(got.size(), expected.size()); ++i)
        QCOMPARE(got.at(i), expected.at(i));
    QCOMPARE(got.size(), expected.size());
    QCOMPARE(streamed.toPlainText(), whole.toPlainText());
    QCOMPARE(streamed.toHtml(), whole.toHtml());
}

// MARKDOWN cut into pieces that end at CUTS (positions in it) and then at every STEP characters.
QStringList piecesOf(const QString &markdown, QList<qsizetype> cuts, qsizetype step)
{
    for (qsizetype at = step; at < markdown.size(); at += step)
        cuts << at;
    cuts << markdown.size();
    std::sort(cuts.begin(), cuts.end());
    QStringList pieces;
    qsizetype from = 0;
    for (const qsizetype cut : std::as_const(cuts)) {
        if (cut > from)
            pieces << markdown.mid(from, cut - from);
        from = std::max(from, cut);
    }
    return pieces;
}

// Positions inside the awkward places of TEXT: in the middle of each of MARKERS.
QList<qsizetype> cutsInside(const QString &text, const QStringList &markers)
{
    QList<qsizetype> cuts;
    for (const QString &marker : markers) {
        const qsizetype at = text.indexOf(marker);
        Q_ASSERT(at >= 0);
        cuts << at + marker.size() / 2;
    }
    return cuts;
}

const QStringList awkward = {
    QStringLiteral("```python"),    QStringLiteral("\n\ndf = pd"), QStringLiteral("$x^2 + y^2"),
    QStringLiteral("$$\n\\int"),    QStringLiteral("| Q2 | 135"),  QStringLiteral("$\\Delta = 15$"),
    QStringLiteral("------"),       QStringLiteral("```js"),       QStringLiteral("\n\nstill the"),
    QStringLiteral("\n\n    more"), QStringLiteral("2. loose"),    QStringLiteral("$$e^{i"),
};

} // namespace

class TestMarkdownStreaming : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void streamedReadsAsRenderedOnce_data()
    {
        QTest::addColumn<QString>("markdown");
        QTest::addColumn<QStringList>("pieces");
        QTest::newRow("a character at a time") << mixed << piecesOf(mixed, {}, 1);
        QTest::newRow("pieces of 10 (as the benchmark)") << mixed << piecesOf(mixed, {}, 10);
        QTest::newRow("cut in awkward places") << mixed << piecesOf(mixed, cutsInside(mixed, awkward), 1000000);
        QTest::newRow("cut in awkward places and every 37") << mixed << piecesOf(mixed, cutsInside(mixed, awkward), 37);
        QTest::newRow("in one piece") << mixed << QStringList{mixed};
        QTest::newRow("ends in a table") << endsInTable << piecesOf(endsInTable, {}, 3);
        QTest::newRow("ends in an open fence") << endsInOpenFence << piecesOf(endsInOpenFence, {}, 2);
    }

    // The view alone: every piece shown, then the finished text.
    void streamedReadsAsRenderedOnce()
    {
        QFETCH(QString, markdown);
        QFETCH(QStringList, pieces);
        MarkdownView streamed;
        streamed.resize(600, 100);
        QString sofar;
        for (const QString &piece : std::as_const(pieces)) {
            sofar += piece;
            streamed.appendStreamingMarkdown(piece);
        }
        QCOMPARE(sofar, markdown);
        MarkdownView whole;
        whole.resize(600, 100);
        whole.setMarkdownText(markdown);
        compareDocuments(*streamed.document(), *whole.document());
        QCOMPARE(streamed.codeBlocks(), whole.codeBlocks());
        QCOMPARE(streamed.formulas(), whole.formulas());
    }

    // An answer that ends in a code block with a long line stays as wide as the view: the line
    // wraps, and the view does not scroll sideways to its end, away from the words before it.
    void aLongCodeLineWrapsInsteadOfScrollingTheAnswer()
    {
        const QString markdown = QStringLiteral("Here is the call you need:\n\n```python\nresult = compute(") +
                                 QStringLiteral("argument, ").repeated(15) + QStringLiteral("last)\n```\n");
        MarkdownView view;
        view.resize(400, 100);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.appendStreamingMarkdown(markdown);
        view.setMarkdownText(markdown);
        QCoreApplication::processEvents();
        QVERIFY2(view.document()->size().width() <= view.viewport()->width() + 1,
                 qPrintable(QString::number(view.document()->size().width())));
        QCOMPARE(view.horizontalScrollBar()->value(), 0);
        QCOMPARE(view.horizontalScrollBar()->maximum(), 0);
    }

    // What is shown part way reads as that part rendered at once.
    void everyFrameReadsAsItsTextRenderedOnce()
    {
        MarkdownView streamed;
        streamed.resize(600, 100);
        const QStringList pieces = piecesOf(mixed, cutsInside(mixed, awkward), 53);
        QString sofar;
        for (const QString &piece : pieces) {
            sofar += piece;
            streamed.appendStreamingMarkdown(piece);
            MarkdownView whole;
            whole.resize(600, 100);
            whole.setMarkdownText(sofar);
            compareDocuments(*streamed.document(), *whole.document());
            if (QTest::currentTestFailed())
                QFAIL(qPrintable(QStringLiteral("after %1 characters").arg(sofar.size())));
        }
    }

    // The real path: deltas into a session shown in a chat view, frame by frame, then the
    // finished message (MessageAdded), against a message widget made from the complete answer.
    void aStreamedAnswerInTheChatViewEndsAsTheCompleteMessage()
    {
        QTemporaryDir dir;
        Settings settings(dir.filePath(QStringLiteral("profile")));
        QCOMPARE(settings.addOverride(QStringLiteral("sandbox/enabled=false")), QString());
        ConversationStore store(settings.dataDirectory());
        QVERIFY(store.open());
        const auto conversation = store.createConversation(QStringLiteral("custom"), QStringLiteral("stream"));
        QVERIFY(conversation);
        ConversationSession session(conversation->id, &store, AgentSettings::read(settings));
        (void)session.load();
        ChatView view;
        view.setSession(&session);
        view.resize(900, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));

        AgentEvent delta;
        delta.kind = AgentEvent::Kind::TextDelta;
        const QStringList pieces = piecesOf(mixed, cutsInside(mixed, awkward), 29);
        for (qsizetype i = 0; i < pieces.size(); ++i) {
            delta.text = pieces.at(i);
            session.handle(delta);
            if (i % 5 == 0) // a frame now and then, as the session's timer makes them
                QTest::qWait(int(ConversationSession::frameInterval.count()) + 5);
        }
        AgentEvent added;
        added.kind = AgentEvent::Kind::MessageAdded;
        added.message.role = ChatMessage::Role::Assistant;
        added.message.content = mixed;
        session.handle(added);
        QApplication::processEvents();

        const QList<MessageWidget *> widgets = view.messageWidgets();
        QCOMPARE(widgets.size(), 1);
        QCOMPARE(widgets.first()->message().status, ChatMessage::Status::Complete);
        const auto *streamed = widgets.first()->findChild<MarkdownView *>();
        ChatMessage complete;
        complete.role = ChatMessage::Role::Assistant;
        complete.content = mixed;
        MessageWidget once(complete, QString());
        const auto *whole = once.findChild<MarkdownView *>();
        QVERIFY(streamed && whole);
        compareDocuments(*streamed->document(), *whole->document());
    }
};

QTEST_MAIN(TestMarkdownStreaming)
#include "tst_markdownstreaming.moc"
