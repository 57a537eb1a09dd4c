// What the chat shows of a text is the text (issue 23): whatever looks like a tag stays, in
// answers and in the user's messages, streamed or loaded; the user's messages keep their lines
// and their code; the code to approve is seen whole; small formulas keep their thin strokes;
// highlighted code reads on its background in light and dark.
#include "screenshot.h"

#include <chat/chatview.h>
#include <chat/codeeditor.h>
#include <chat/highlighting.h>
#include <chat/markdownview.h>
#include <chat/mathobject.h>
#include <chat/messagewidget.h>
#include <chat/toolcallcard.h>
#include <math/mathrenderer.h>
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
        session = std::make_unique<ConversationSession>(conversation->id, &store, settings.agent());
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

} // namespace

class TestChatRendering : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { MarkdownView::setMathRenderer(nullptr); }

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
        for (qsizetype at = 3; at < markdown.size() + 3; at += 3)
            streamed.setStreamingMarkdown(markdown.left(at));
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
};

QTEST_MAIN(TestChatRendering)
#include "tst_chatrendering.moc"
