// The code inspector before any code ran (what will appear there, no empty boxes) and with a run
// selected (only the parts it has). With SANDPIPER_SCREENSHOT_DIR set, also saves its
// screenshots, narrow and wide, light and dark.
#include "screenshot.h"
#include "testprofile.h"

#include <chat/codeeditor.h>
#include <codeinspector.h>
#include <session/conversationsession.h>
#include <session/executionmodel.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>

#include <QApplication>
#include <QLabel>
#include <QListView>
#include <QPlainTextEdit>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

using namespace Sandpiper;
using namespace Sandpiper::Test;

class TestCodeInspector : public QObject
{
    Q_OBJECT

    TestProfile m_profile;

    std::unique_ptr<ConversationSession> openSession(const QList<StoredExecution> &runs)
    {
        const auto conversation = m_profile.store()->createConversation(QString(), QString());
        if (!conversation)
            return nullptr;
        for (StoredExecution run : runs) {
            run.conversationId = conversation->id;
            if (!m_profile.store()->addExecution(run))
                return nullptr;
        }
        auto session = std::make_unique<ConversationSession>(conversation->id, m_profile.store(), AgentConfig{});
        if (!session->load())
            return nullptr;
        return session;
    }

    static StoredExecution run(const QString &code, const QString &output)
    {
        StoredExecution execution;
        execution.code = code;
        execution.origin = StoredExecution::Origin::User;
        execution.result.status = ExecutionResult::Status::Ok;
        execution.result.standardOutput = output;
        execution.result.durationMs = 40;
        return execution;
    }

    // The visible widgets of INSPECTOR named NAME.
    static QList<QWidget *> shown(CodeInspector &inspector, const QString &name)
    {
        QList<QWidget *> found;
        for (QWidget *widget : inspector.findChildren<QWidget *>()) {
            if (widget->accessibleName() == name && widget->isVisibleTo(&inspector))
                found << widget;
        }
        return found;
    }

    // The visible labels of INSPECTOR that say TEXT.
    static int labelsSaying(CodeInspector &inspector, const QString &text)
    {
        int count = 0;
        for (QLabel *label : inspector.findChildren<QLabel *>())
            count += label->isVisibleTo(&inspector) && label->text().contains(text);
        return count;
    }

private Q_SLOTS:
    void initTestCase() { QCOMPARE(m_profile.open(), QString()); }

    void beforeAnyRunItSaysWhatWillAppear()
    {
        CodeInspector inspector;
        inspector.resize(380, 700);
        auto session = openSession({});
        QVERIFY(session);
        for (ConversationSession *showing : {static_cast<ConversationSession *>(nullptr), session.get()}) {
            inspector.setSession(showing);
            QCOMPARE(labelsSaying(inspector, QStringLiteral("Code the model runs appears here")), 1);
            for (const QString &box :
                 {QStringLiteral("Executions"), QStringLiteral("Executed code"), QStringLiteral("Standard output"),
                  QStringLiteral("Standard error"), QStringLiteral("Displayed value"), QStringLiteral("Tables"),
                  QStringLiteral("Figures")})
                QVERIFY2(shown(inspector, box).isEmpty(), qPrintable(box + QStringLiteral(" is shown empty")));
            QCOMPARE(labelsSaying(inspector, QStringLiteral("Output")), 0);
        }
    }

    void aRunShowsOnlyThePartsItHas()
    {
        StoredExecution failed = run(QStringLiteral("1 / 0"), QString());
        failed.result.status = ExecutionResult::Status::Error;
        failed.result.errorType = QStringLiteral("ZeroDivisionError");
        failed.result.errorMessage = QStringLiteral("division by zero");
        failed.result.traceback = QStringLiteral("ZeroDivisionError: division by zero\n");
        StoredExecution valued = run(QStringLiteral("x = 6\nx * 7"), QString());
        valued.result.value = QStringLiteral("42");
        auto session = openSession({failed, valued, run(QStringLiteral("print('hello')"), QStringLiteral("hello\n"))});
        QVERIFY(session);
        CodeInspector inspector;
        inspector.resize(380, 700);
        inspector.setSession(session.get());
        QCOMPARE(labelsSaying(inspector, QStringLiteral("Code the model runs appears here")), 0);
        QCOMPARE(shown(inspector, QStringLiteral("Executions")).size(), 1);

        // The newest run comes first: it printed, and that is all it did.
        QCOMPARE(inspector.codeEditor()->toPlainText(), QStringLiteral("print('hello')"));
        QVERIFY(inspector.codeEditor()->isVisibleTo(&inspector));
        QVERIFY(inspector.standardOutput()->isVisibleTo(&inspector));
        QCOMPARE(labelsSaying(inspector, QStringLiteral("Output")), 1);
        QVERIFY(!inspector.standardError()->isVisibleTo(&inspector));
        QCOMPARE(labelsSaying(inspector, QStringLiteral("Errors and warnings")), 0);
        QVERIFY(shown(inspector, QStringLiteral("Displayed value")).isEmpty());
        QVERIFY(shown(inspector, QStringLiteral("Tables")).isEmpty());
        QVERIFY(shown(inspector, QStringLiteral("Figures")).isEmpty());

        auto *list = qobject_cast<QListView *>(shown(inspector, QStringLiteral("Executions")).constFirst());
        list->setCurrentIndex(list->model()->index(1, 0));
        QVERIFY(!inspector.standardOutput()->isVisibleTo(&inspector));
        QCOMPARE(shown(inspector, QStringLiteral("Displayed value")).size(), 1);
        QCOMPARE(qobject_cast<QTextBrowser *>(shown(inspector, QStringLiteral("Displayed value")).constFirst())
                     ->toPlainText(),
                 QStringLiteral("42"));

        list->setCurrentIndex(list->model()->index(2, 0));
        QVERIFY(inspector.standardError()->isVisibleTo(&inspector));
        QCOMPARE(labelsSaying(inspector, QStringLiteral("Errors and warnings")), 1);
        QVERIFY(shown(inspector, QStringLiteral("Displayed value")).isEmpty());
        QVERIFY(!inspector.standardOutput()->isVisibleTo(&inspector));
    }

    void screenshots_data() { addThemeRows(); }

    void screenshots()
    {
        QFETCH(QString, theme);
        applyTheme(*m_profile.settings(), theme);
        auto session = openSession({run(QStringLiteral("print('hello')"), QStringLiteral("hello\n"))});
        QVERIFY(session);
        for (const QSize size : {QSize(260, 500), QSize(480, 760)}) {
            CodeInspector inspector;
            inspector.resize(size);
            inspector.show();
            QVERIFY(QTest::qWaitForWindowExposed(&inspector));
            saveScreenshot(&inspector, QStringLiteral("inspector-empty-%1-%2.png").arg(size.width()).arg(theme));
            inspector.setSession(session.get());
            saveScreenshot(&inspector, QStringLiteral("inspector-output-%1-%2.png").arg(size.width()).arg(theme));
        }
    }
};

QTEST_MAIN(TestCodeInspector)
#include "tst_codeinspector.moc"
