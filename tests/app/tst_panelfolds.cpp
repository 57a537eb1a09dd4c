// The panels a narrow window folds away, and brings back when it is wide again.
#include <panelfolds.h>

#include <QAction>
#include <QTest>

using namespace Sandpiper;

class TestPanelFolds : public QObject
{
    Q_OBJECT

    static std::unique_ptr<QAction> shownPanel()
    {
        auto action = std::make_unique<QAction>();
        action->setCheckable(true);
        action->setChecked(true);
        return action;
    }

    // The window's two panels as MainWindow folds them: the inspector first, then the list.
    struct WindowPanels {
        std::unique_ptr<QAction> inspector = shownPanel();
        std::unique_ptr<QAction> list = shownPanel();
        PanelFolds folds;
        WindowPanels()
        {
            folds.add(inspector.get(), 820);
            folds.add(list.get(), 620);
        }
    };

private Q_SLOTS:
    void foldsInOrderAndComesBack()
    {
        WindowPanels panels;
        QAction *inspector = panels.inspector.get();
        QAction *list = panels.list.get();
        PanelFolds &folds = panels.folds;
        folds.resized(-1, 1000);
        QVERIFY(inspector->isChecked());
        QVERIFY(list->isChecked());
        folds.resized(1000, 700);
        QVERIFY(!inspector->isChecked());
        QVERIFY(list->isChecked());
        folds.resized(700, 500);
        QVERIFY(!list->isChecked());
        folds.resized(500, 1000);
        QVERIFY(inspector->isChecked());
        QVERIFY(list->isChecked());
    }

    void aFirstNarrowShowFolds()
    {
        const auto inspector = shownPanel();
        PanelFolds folds;
        folds.add(inspector.get(), 820);
        folds.resized(-1, 600);
        QVERIFY(!inspector->isChecked());
        folds.resized(600, 900);
        QVERIFY(inspector->isChecked());
    }

    void thePanelTheUserChoseStaysAsLeft()
    {
        const auto inspector = shownPanel();
        PanelFolds folds;
        folds.add(inspector.get(), 820);
        folds.resized(1000, 700);
        QVERIFY(!inspector->isChecked());
        // Shown and hidden again by the user while narrow: wide again, it stays hidden.
        inspector->trigger();
        inspector->trigger();
        folds.resized(700, 1000);
        QVERIFY(!inspector->isChecked());
        // A panel the user had hidden is not folded, so it does not come back either.
        folds.resized(1000, 700);
        folds.resized(700, 1000);
        QVERIFY(!inspector->isChecked());
    }

    // Shown by the user in a window too narrow for it, a panel folds the others to keep the chat
    // readable; they come back when it goes, or when the window is wide enough for all.
    void aPanelShownWhereItDoesNotFitMakesRoom()
    {
        WindowPanels panels;
        QAction *inspector = panels.inspector.get();
        QAction *list = panels.list.get();
        PanelFolds &folds = panels.folds;
        folds.resized(-1, 800);
        QVERIFY(!inspector->isChecked());
        QVERIFY(list->isChecked());
        inspector->trigger();
        QVERIFY(inspector->isChecked());
        QVERIFY(!list->isChecked());
        inspector->trigger();
        QVERIFY(list->isChecked());

        // Wide enough for both: the list comes back though the inspector stays.
        inspector->trigger();
        QVERIFY(!list->isChecked());
        folds.resized(800, 1000);
        QVERIFY(inspector->isChecked());
        QVERIFY(list->isChecked());

        // Hidden in a window too narrow for the list itself: it waits for the width.
        folds.resized(1000, 800);
        QVERIFY(!inspector->isChecked());
        inspector->trigger();
        QVERIFY(!list->isChecked());
        folds.resized(800, 560);
        inspector->trigger();
        QVERIFY(!list->isChecked());
        folds.resized(560, 700);
        QVERIFY(list->isChecked());

        // The list shown by the user meanwhile stays: nothing is folded twice or brought back.
        folds.resized(700, 800);
        inspector->trigger();
        QVERIFY(!list->isChecked());
        list->trigger();
        QVERIFY(list->isChecked());
        inspector->trigger();
        QVERIFY(list->isChecked());
    }
};

QTEST_MAIN(TestPanelFolds)
#include "tst_panelfolds.moc"
