#include <mainwindow.h>

#include <QListView>
#include <QPlainTextEdit>
#include <QTest>
#include <QTextBrowser>

class TestMainWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void showsTheEmptyLayout()
    {
        Sandpiper::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.windowTitle(), QStringLiteral("Sandpiper"));
        QCOMPARE(window.conversationList()->model()->rowCount(), 0);
        QVERIFY(window.chatView()->toPlainText().isEmpty());
        QVERIFY(window.composer()->isVisible());
        QVERIFY(window.composer()->hasFocus());
    }

    void everyControlHasAnAccessibleName()
    {
        Sandpiper::MainWindow window;
        window.show();
        const auto widgets = window.findChildren<QWidget *>();
        for (QWidget *widget : widgets) {
            if (widget->focusPolicy() & Qt::TabFocus)
                QVERIFY2(!widget->accessibleName().isEmpty(), widget->metaObject()->className());
        }
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
