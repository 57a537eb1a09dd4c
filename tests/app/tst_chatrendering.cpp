// What the chat shows of a text is the text (issue 23): whatever looks like a tag stays, in
// answers and in the user's messages, streamed or loaded; the user's messages keep their lines
// and their code; the code to approve is seen whole; small formulas keep their thin strokes;
// highlighted code reads on its background in light and dark.
#include "cardlookup.h"
#include "screenshot.h"

#include <chat/chatview.h>
#include <chat/codeeditor.h>
#include <chat/highlighting.h>
#include <chat/markdownview.h>
#include <chat/mathobject.h>
#include <chat/messagewidget.h>
#include <chat/toolcallcard.h>
#include <math/mathrenderer.h>
#include <session/agentsettings.h>
#include <session/conversationsession.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>
#include <tools/pythontool.h>

#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Format>
#include <KSyntaxHighlighting/Repository>

#include <QAbstractTextDocumentLayout>
#include <QAccessible>
#include <QApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPainter>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>
#include <QToolButton>

using namespace Sandpiper;

namespace {

// The three places a text can stand in an answer.
QString inContext(const QString &context, const QString &text)
{
    if (context == QLatin1String("code span"))
        return QStringLiteral("Run `%1` now.").arg(text);
    if (context == QLatin1String("code block"))
        return QStringLiteral("Run this:\n\n```python\n%1\n```\n\nThen look.").arg(text);
    return QStringLiteral("Before. %1\n\nAfter.").arg(text);
}

ChatMessage message(ChatMessage::Role role, const QString &content)
{
    ChatMessage made;
    made.role = role;
    made.content = content;
    return made;
}

// A conversation in a real store, shown by a chat view from what the store holds.
struct StoredChat {
    QTemporaryDir dir;
    Settings settings{dir.filePath(QStringLiteral("profile"))};
    ConversationStore store{settings.dataDirectory()};
    std::unique_ptr<ConversationSession> session;
    ChatView view;

    bool open(const QList<ChatMessage> &messages)
    {
        if (!settings.addOverride(QStringLiteral("sandbox/enabled=false")).isEmpty() || !store.open())
            return false;
        const auto conversation = store.createConversation(QStringLiteral("custom"), QStringLiteral("stored"));
        if (!conversation)
            return false;
        for (const ChatMessage &stored : messages) {
            if (!store.appendMessage(conversation->id, stored))
                return false;
        }
        session = std::make_unique<ConversationSession>(conversation->id, &store, AgentSettings::read(settings));
        (void)session->load();
        view.setSession(session.get());
        view.resize(900, 700);
        view.show();
        return QTest::qWaitForWindowExposed(&view);
    }
};

QString shownText(const MessageWidget *widget)
{
    const auto *view = widget->findChild<MarkdownView *>();
    return view ? view->document()->toPlainText() : QString();
}

// The height of the lines of BOX's code as laid out, with the document's margins.
qreal codeHeight(CodeEditor *box)
{
    qreal height = 2 * box->document()->documentMargin();
    for (QTextBlock block = box->document()->begin(); block.isValid(); block = block.next())
        height += box->document()->documentLayout()->blockBoundingRect(block).height();
    return height;
}

// BOX shows every line of its code, or, past the most it shows, scrolls with a bar of its own;
// no scroll bar lies across the code.
void checkCodeBox(CodeEditor *box, bool scrolls)
{
    QVERIFY(box);
    QVERIFY(box->isVisible());
    QTRY_VERIFY(box->viewport()->width() > 100);
    QApplication::processEvents();
    QVERIFY2(!box->horizontalScrollBar()->isVisible(), "a scroll bar lies across the code");
    const qreal needed = codeHeight(box);
    if (scrolls) {
        QVERIFY(box->verticalScrollBar()->isVisible());
        QVERIFY(box->viewport()->height() >= 20 * box->fontMetrics().lineSpacing());
        return;
    }
    QVERIFY2(box->viewport()->height() >= needed,
             qPrintable(QStringLiteral("%1 px shown of %2").arg(box->viewport()->height()).arg(needed)));
    QCOMPARE(box->verticalScrollBar()->maximum(), 0);
}

QString numberedLines(int count, const QString &longLine = {})
{
    QStringList lines;
    for (int i = 1; i <= count; ++i)
        lines << QStringLiteral("value_%1 = %1 * 2  # line %1").arg(i);
    if (!longLine.isEmpty())
        lines.insert(1, longLine);
    return lines.join(QLatin1Char('\n'));
}

ToolCall pythonCall(const QString &id, const QString &code)
{
    return {
        id, PythonTool::toolName(),
        QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("code"), code}}).toJson(QJsonDocument::Compact))};
}

// What a colour of a character is, drawn: its own or the text's.
QColor foregroundOf(const QTextCharFormat &format, const QPalette &palette)
{
    return format.hasProperty(QTextFormat::ForegroundBrush) ? format.foreground().color()
                                                            : palette.color(QPalette::Text);
}

// Code that holds most of what a highlighter tells apart.
const QString pythonSample =
    QStringLiteral("import os  # a comment\n"
                   "@decorator\n"
                   "def f(x: int = 0x1F, *args) -> str:\n"
                   "    \"\"\"Docstring.\"\"\"\n"
                   "    print(f\"{x!r} and {len(args)}\\n\", r'raw', b'bytes', 3.5e-2, None, True)\n"
                   "    return str(os.path) if x else self.value  # TODO\n");

// A "+" of Computer Modern at 10 pt, as MathRenderer answers it: a stem and a bar 0.4 pt thick.
const QByteArray plusSvg =
    "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 -5.83 7.78 6.66\" width=\"7.78\" height=\"6.66\">"
    "<path fill=\"#000\" d=\"M3.69 -5.83 L4.09 -5.83 L4.09 0.83 L3.69 0.83 Z "
    "M0.56 -2.7 L7.22 -2.7 L7.22 -2.3 L0.56 -2.3 Z\"/></svg>";

// Puts the drawn "+" in the renderer's disk cache in CACHEFOLDER, as it keeps what it drew.
bool cachePlus(const QString &cacheFolder)
{
    const QString tex = QStringLiteral("+");
    const QByteArray key =
        QCryptographicHash::hash(QByteArray(QByteArray("1") + '\0' + tex.toUtf8()), QCryptographicHash::Sha256)
            .toHex()
            .left(32);
    QFile file(cacheFolder + QLatin1Char('/') + QString::fromLatin1(key) + QStringLiteral(".json"));
    if (!file.open(QIODevice::WriteOnly))
        return false;
    file.write(QJsonDocument(QJsonObject{{QStringLiteral("tex"), tex},
                                         {QStringLiteral("svg"), QString::fromLatin1(plusSvg)},
                                         {QStringLiteral("width"), 7.78},
                                         {QStringLiteral("ascent"), 5.83},
                                         {QStringLiteral("descent"), 0.83}})
                   .toJson());
    return true;
}

// How much ink (0 to 1) the darkest pixel of IMAGE in AREA has, on white.
double darkestInk(const QImage &image, const QRect &area)
{
    double ink = 0;
    for (int y = area.top(); y <= area.bottom(); ++y) {
        for (int x = area.left(); x <= area.right(); ++x)
            ink = std::max(ink, 1.0 - qGray(image.pixel(x, y)) / 255.0);
    }
    return ink;
}

} // namespace

class TestChatRendering : public QObject
{
    Q_OBJECT

private Q_SLOTS:

    void textThatLooksLikeATagIsShown_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("context");
        const QStringList samples = {
            QStringLiteral("print('in <module> the list<int> and a < b > c, THE END')"),
            QStringLiteral("File \"<cell-1>\", line 3, in <module> and the rest of the traceback"),
            QStringLiteral("std::vector<int> values; std::map<std::string, int> counts;"),
            QStringLiteral("if a < b > c and d<e: then the end"),
            QStringLiteral("cat <<EOF > notes.txt and the lines after"),
            QStringLiteral("<script>alert('x')</script> and after it"),
            QStringLiteral("an unclosed <b and then more words"),
            QStringLiteral("<!-- a comment that never closes, then words"),
            QStringLiteral("<b>not bold</b> and <img src=\"/etc/passwd\"> stay text"),
        };
        const QStringList names = {
            QStringLiteral("module"),      QStringLiteral("traceback"), QStringLiteral("generics"),
            QStringLiteral("comparisons"), QStringLiteral("heredoc"),   QStringLiteral("script"),
            QStringLiteral("unclosed"),    QStringLiteral("comment"),   QStringLiteral("tags")};
        for (const QString &context :
             {QStringLiteral("prose"), QStringLiteral("code span"), QStringLiteral("code block")}) {
            for (qsizetype i = 0; i < samples.size(); ++i)
                QTest::addRow("%s in %s", qPrintable(names.at(i)), qPrintable(context)) << samples.at(i) << context;
        }
    }

    // Rendered at once, streamed in pieces, and loaded from the store in the chat (an answer and a
    // message of the user's): the whole text is there.
    void textThatLooksLikeATagIsShown()
    {
        QFETCH(QString, text);
        QFETCH(QString, context);
        const QString markdown = inContext(context, text);

        MarkdownView whole;
        whole.resize(600, 100);
        whole.setMarkdownText(markdown);
        QVERIFY2(whole.document()->toPlainText().contains(text), qPrintable(whole.document()->toPlainText()));

        MarkdownView streamed;
        streamed.resize(600, 100);
        for (qsizetype at = 0; at < markdown.size(); at += 3)
            streamed.appendStreamingMarkdown(markdown.mid(at, 3));
        QVERIFY2(streamed.document()->toPlainText().contains(text), qPrintable(streamed.document()->toPlainText()));
        QCOMPARE(streamed.document()->toHtml(), whole.document()->toHtml());

        StoredChat chat;
        QVERIFY(chat.open({message(ChatMessage::Role::User, text), message(ChatMessage::Role::Assistant, markdown)}));
        const QList<MessageWidget *> widgets = chat.view.messageWidgets();
        QCOMPARE(widgets.size(), 2);
        QVERIFY2(shownText(widgets.at(0)).contains(text), qPrintable(shownText(widgets.at(0))));
        QVERIFY2(shownText(widgets.at(1)).contains(text), qPrintable(shownText(widgets.at(1))));
    }

    // The model's reasoning and an error are text too, read as they are by a screen reader.
    void reasoningAndErrorsThatLookLikeTagsAreShown()
    {
        ChatMessage answer = message(ChatMessage::Role::Assistant, QStringLiteral("Done."));
        answer.reasoning = QStringLiteral("<module> is where the error was, and list<int> too");
        answer.status = ChatMessage::Status::Error;
        answer.error = QStringLiteral("<html> came back from the server, and more");
        MessageWidget widget(answer, QString());
        QStringList read;
        for (QLabel *label : widget.findChildren<QLabel *>()) {
            QAccessibleInterface *accessible = QAccessible::queryAccessibleInterface(label);
            QVERIFY(accessible);
            read << accessible->text(QAccessible::Name);
        }
        QVERIFY2(read.contains(answer.reasoning), qPrintable(read.join(QLatin1Char('|'))));
        QVERIFY2(read.contains(answer.error), qPrintable(read.join(QLatin1Char('|'))));
    }

    // An answer without a word says so (it showed nothing at all); one that calls a tool does not.
    void anAnswerWithoutTextSaysSo()
    {
        const auto shown = [](const ChatMessage &answer) {
            MessageWidget widget(answer, QString());
            QStringList texts;
            for (QLabel *label : widget.findChildren<QLabel *>()) {
                if (label->isVisibleTo(&widget))
                    texts << label->text();
            }
            return texts.join(QLatin1Char('|'));
        };
        ChatMessage empty = message(ChatMessage::Role::Assistant, QString());
        empty.status = ChatMessage::Status::Complete;
        QVERIFY2(shown(empty).contains(QLatin1String("no text: the model ended this answer without writing any")),
                 qPrintable(shown(empty)));
        ChatMessage calling = empty;
        calling.toolCalls = {
            ToolCall{QStringLiteral("call_1"), QStringLiteral("execute_python_code"), QStringLiteral("{}")}};
        QVERIFY2(!shown(calling).contains(QLatin1String("no text")), qPrintable(shown(calling)));
        ChatMessage said = message(ChatMessage::Role::Assistant, QStringLiteral("Hello."));
        said.status = ChatMessage::Status::Complete;
        QVERIFY2(!shown(said).contains(QLatin1String("no text")), qPrintable(shown(said)));
    }

    // Shift+Enter lines stay lines, spaces stay, and what the user typed is not read as Markdown or
    // math: code typed without fences keeps its dollars.
    void theUsersMessageIsShownAsTyped_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::newRow("lines") << QStringLiteral("first line\nsecond line\n    indented third\n\nafter a blank line");
        QTest::newRow("code with dollars") << QStringLiteral("print(\"$E = mc^2$\")\nprint(\"$a$ and $b$\")");
        QTest::newRow("markdown signs") << QStringLiteral(
            "**not bold** and _not italic_\n# not a heading\n- not a list");
        QTest::newRow("math in text") << QStringLiteral("is $x^2$ positive?\n$$y$$");
    }

    void theUsersMessageIsShownAsTyped()
    {
        QFETCH(QString, typed);
        StoredChat chat;
        QVERIFY(chat.open({message(ChatMessage::Role::User, typed)}));
        const QList<MessageWidget *> widgets = chat.view.messageWidgets();
        QCOMPARE(widgets.size(), 1);
        const auto *view = widgets.first()->findChild<MarkdownView *>();
        QVERIFY(view);
        QCOMPARE(view->document()->toPlainText(), typed);
        QCOMPARE(view->document()->blockCount(), int(typed.count(QLatin1Char('\n')) + 1));
        QVERIFY(view->formulas().isEmpty());
        // Each line its own line on screen, one below the other.
        qreal previousTop = -1;
        for (QTextBlock block = view->document()->begin(); block.isValid(); block = block.next()) {
            const qreal top = view->document()->documentLayout()->blockBoundingRect(block).top();
            QVERIFY(top > previousTop);
            previousTop = top;
        }
    }

    // In an answer, code is never math, in a span or in a block.
    void codeInAnAnswerIsNotMath()
    {
        MarkdownView view;
        view.resize(600, 100);
        view.setMarkdownText(QStringLiteral("Try `print(\"$E = mc^2$\")`:\n\n```python\nprint(\"$E = mc^2$\")\n```"));
        QVERIFY(view.formulas().isEmpty());
        QCOMPARE(view.document()->toPlainText().count(QStringLiteral("print(\"$E = mc^2$\")")), 2);
    }

    void theCodeToApproveIsSeenWhole_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<bool>("scrolls");
        QTest::newRow("3 lines") << numberedLines(3) << false;
        QTest::newRow("12 lines") << numberedLines(12) << false;
        QTest::newRow("a long line") << numberedLines(
                                            3, QStringLiteral("print('%1')").arg(QStringLiteral("wide ").repeated(60)))
                                     << false;
        QTest::newRow("80 lines") << numberedLines(80) << true;
    }

    // As the model proposes the call and the approval card opens.
    void theCodeToApproveIsSeenWhole()
    {
        QFETCH(QString, code);
        QFETCH(bool, scrolls);
        StoredChat chat;
        QVERIFY(chat.open({message(ChatMessage::Role::User, QStringLiteral("compute"))}));
        AgentEvent event;
        event.kind = AgentEvent::Kind::ToolCallProposed;
        event.call = pythonCall(QStringLiteral("call_0"), code);
        event.key = CallKey{1, 0};
        chat.session->handle(event);
        event.kind = AgentEvent::Kind::ApprovalNeeded;
        event.preview = code;
        chat.session->handle(event);
        QApplication::processEvents();
        ToolCallCard *card = Test::newestCard(&chat.view, QStringLiteral("call_0"));
        QVERIFY(card);
        QTRY_VERIFY(card->isAwaitingApproval() && card->isExpanded());
        checkCodeBox(card->findChild<CodeEditor *>(), scrolls);
    }

    void theCodeThatRanIsSeenWhole_data() { theCodeToApproveIsSeenWhole_data(); }

    // A call loaded from the store, opened with a click.
    void theCodeThatRanIsSeenWhole()
    {
        QFETCH(QString, code);
        QFETCH(bool, scrolls);
        ChatMessage calls = message(ChatMessage::Role::Assistant, QString());
        calls.toolCalls = {pythonCall(QStringLiteral("call_0"), code)};
        ChatMessage result = message(ChatMessage::Role::Tool, QStringLiteral("Output: 2"));
        result.toolCallId = QStringLiteral("call_0");
        result.toolName = PythonTool::toolName();
        StoredChat chat;
        QVERIFY(chat.open({message(ChatMessage::Role::User, QStringLiteral("compute")), calls, result}));
        ToolCallCard *card = Test::newestCard(&chat.view, QStringLiteral("call_0"));
        QVERIFY(card);
        QVERIFY(!card->isExpanded());
        QToolButton *header = nullptr;
        for (QToolButton *button : card->findChildren<QToolButton *>()) {
            if (button->accessibleName() == QLatin1String("Show the call and its output"))
                header = button;
        }
        QVERIFY(header);
        QTest::mouseClick(header, Qt::LeftButton);
        QTRY_VERIFY(card->isExpanded());
        checkCodeBox(card->findChild<CodeEditor *>(), scrolls);
    }

    void smallFormulasKeepTheirThinStrokes_data()
    {
        QTest::addColumn<int>("pixelSize");
        QTest::addColumn<qreal>("x");
        for (int pixelSize = 11; pixelSize <= 17; ++pixelSize) {
            for (const qreal x : {0.0, 0.3, 0.5, 0.7})
                QTest::addRow("%d px at x+%.1f", pixelSize, x) << pixelSize << x;
        }
    }

    // "$+$" in text of PIXELSIZE, drawn at X: its stem as plain to see as its bar.
    void smallFormulasKeepTheirThinStrokes()
    {
        QFETCH(int, pixelSize);
        QFETCH(qreal, x);
        QTemporaryDir cache;
        QVERIFY(cachePlus(cache.path()));
        MathRenderer renderer(QStringLiteral("sandpiper-test-no-image"), cache.path());
        renderer.setEnabled(false); // what the cache holds, nothing started
        QCOMPARE(renderer.formula(QStringLiteral("+")).state, MathRenderer::State::Drawn);
        MarkdownView view({&renderer});
        QPalette palette = view.palette();
        palette.setColor(QPalette::Text, Qt::black);
        view.setPalette(palette);
        QFont font = view.font();
        font.setPixelSize(pixelSize);
        view.setFont(font);
        view.document()->setDefaultFont(font);
        view.resize(600, 100);
        view.setMarkdownText(QStringLiteral("a $+$ b"));
        QTextFormat format;
        for (auto it = view.document()->begin().begin(); !it.atEnd(); ++it) {
            if (MathObject::isFormula(it.fragment().charFormat()))
                format = it.fragment().charFormat();
        }
        QVERIFY(format.isValid());
        auto *math = view.findChild<MathObject *>();
        QVERIFY(math);
        const QSizeF size = math->intrinsicSize(view.document(), 0, format);
        QImage image(int(size.width()) + 8, int(size.height()) + 8, QImage::Format_RGB32);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            math->drawObject(&painter, QRectF(QPointF(2 + x, 2.4), size), view.document(), 0, format);
        }
        // Where the ink is.
        QRect ink;
        for (int py = 0; py < image.height(); ++py) {
            for (int px = 0; px < image.width(); ++px) {
                if (qGray(image.pixel(px, py)) < 200)
                    ink |= QRect(px, py, 1, 1);
            }
        }
        QVERIFY(ink.isValid());
        // The stem alone above the bar, the bar alone left of the stem.
        const double stem = darkestInk(image, QRect(ink.left(), ink.top(), ink.width(), ink.height() / 4));
        const double bar = darkestInk(image, QRect(ink.left(), ink.top(), ink.width() / 4, ink.height()));
        QVERIFY2(stem >= 0.6 && bar >= 0.6, qPrintable(QStringLiteral("stem %1, bar %2").arg(stem).arg(bar)));
    }

    void codeReadsOnItsBackground_data() { Test::addThemeRows(); }

    // Every style of the code theme used, for the languages models write most, has a contrast of
    // 4.5 or more with the background it is shown on, in the chat's code blocks and in the code
    // boxes of the cards.
    void codeReadsOnItsBackground()
    {
        QFETCH(QString, theme);
        QTemporaryDir dir;
        Settings settings(dir.filePath(QStringLiteral("profile")));
        Test::applyTheme(settings, theme);
        const QPalette palette = QApplication::palette();
        QCOMPARE(Highlighting::isDark(palette), theme == QLatin1String("dark"));
        const auto codeTheme = Highlighting::themeFor(palette);
        for (const QColor background : {palette.color(QPalette::AlternateBase), palette.color(QPalette::Base)}) {
            for (const char *language : {"Python", "Bash", "C++", "JSON", "SQL", "Markdown", "HTML", "YAML"}) {
                const auto definition = Highlighting::repository().definitionForName(QLatin1String(language));
                QVERIFY(definition.isValid());
                for (const KSyntaxHighlighting::Format &style : definition.formats()) {
                    const QTextCharFormat shown = Highlighting::charFormat(style, codeTheme, background);
                    const QColor behind =
                        shown.hasProperty(QTextFormat::BackgroundBrush) ? shown.background().color() : background;
                    const double contrast = Highlighting::contrastRatio(foregroundOf(shown, palette), behind);
                    QVERIFY2(contrast >= 4.5, qPrintable(QStringLiteral("%1 %2: %3 on %4, %5:1")
                                                             .arg(QLatin1String(language), style.name(),
                                                                  foregroundOf(shown, palette).name(), behind.name())
                                                             .arg(contrast, 0, 'f', 2)));
                }
            }
        }

        // As shown: an answer's code block, and the code box of a card.
        MarkdownView answer;
        answer.resize(700, 100);
        answer.setMarkdownText(QStringLiteral("```python\n%1```").arg(pythonSample));
        int checked = 0;
        for (QTextBlock block = answer.document()->begin(); block.isValid(); block = block.next()) {
            if (!block.blockFormat().hasProperty(QTextFormat::BlockCodeFence))
                continue;
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                const QColor text = foregroundOf(it.fragment().charFormat(), palette);
                const QColor behind = it.fragment().charFormat().hasProperty(QTextFormat::BackgroundBrush)
                                          ? it.fragment().charFormat().background().color()
                                          : block.blockFormat().background().color();
                QVERIFY2(Highlighting::contrastRatio(text, behind) >= 4.5,
                         qPrintable(
                             QStringLiteral("\"%1\": %2 on %3").arg(it.fragment().text(), text.name(), behind.name())));
                ++checked;
            }
        }
        QVERIFY(checked > 10);

        CodeEditor box;
        box.setPlainText(pythonSample);
        box.resize(700, 300);
        box.show();
        QVERIFY(QTest::qWaitForWindowExposed(&box));
        checked = 0;
        for (QTextBlock block = box.document()->begin(); block.isValid(); block = block.next()) {
            for (const QTextLayout::FormatRange &range : block.layout()->formats()) {
                const QColor text = foregroundOf(range.format, palette);
                const QColor behind = range.format.hasProperty(QTextFormat::BackgroundBrush)
                                          ? range.format.background().color()
                                          : box.palette().color(QPalette::Base);
                QVERIFY2(Highlighting::contrastRatio(text, behind) >= 4.5,
                         qPrintable(QStringLiteral("\"%1\": %2 on %3")
                                        .arg(block.text().mid(range.start, range.length), text.name(), behind.name())));
                ++checked;
            }
        }
        QVERIFY(checked > 10);
    }
};

QTEST_MAIN(TestChatRendering)
#include "tst_chatrendering.moc"
