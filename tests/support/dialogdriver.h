#pragma once

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QTest>
#include <QTimer>

#include <functional>

namespace Sandpiper::Test {

// Answers the menus and modal dialogs that a widget opens, in order: each step waits for a
// widget of its kind (the timer fires inside their event loops), then acts on it. A step is
// taken off the list before it acts, since acting may open the widget of the next step.
class DialogDriver : public QObject
{
public:
    DialogDriver() { connect(&m_timer, &QTimer::timeout, this, &DialogDriver::poll); }
    bool done() const { return m_steps.isEmpty(); }

    // Picks the menu entry called TEXT.
    void choose(const QString &text)
    {
        then<QMenu>([text](QMenu *menu) {
            for (QAction *action : menu->actions()) {
                if (action->text() == text) {
                    menu->setActiveAction(action);
                    QTest::keyClick(menu, Qt::Key_Return);
                    return;
                }
            }
            menu->close();
        });
    }
    // Saves to PATH in the file dialog; STARTEDIN, if given, is where the dialog started.
    void saveTo(const QString &path, QString *startedIn = nullptr)
    {
        then<QFileDialog>([path, startedIn](QFileDialog *dialog) {
            if (startedIn)
                *startedIn = dialog->directory().absolutePath();
            // Typed into the name field, as a user does: selectFile() races the folder's loading.
            auto *name = dialog->findChild<QLineEdit *>(QStringLiteral("fileNameEdit"));
            name->setText(path);
            QMetaObject::invokeMethod(dialog, "accept", Qt::QueuedConnection);
        });
    }
    // Keeps the message box's text and buttons in TEXT and BUTTONS, then clicks CLICK (or
    // closes the box when it has no such button).
    void answer(QString *text, QStringList *buttons, const QString &click)
    {
        then<QMessageBox>([=](QMessageBox *box) {
            *text = box->text();
            buttons->clear();
            QAbstractButton *target = nullptr;
            for (QAbstractButton *button : box->buttons()) {
                *buttons << button->text();
                if (button->text() == click)
                    target = button;
            }
            if (target)
                target->click();
            else
                box->reject();
        });
    }

    // Any other dialog or menu: ACT is done on the next one of kind W.
    template<typename W> void then(std::function<void(W *)> act)
    {
        m_steps << Step{[](QWidget *widget) { return qobject_cast<W *>(widget) != nullptr; },
                        [act](QWidget *widget) {
                            act(qobject_cast<W *>(widget));
                        }};
        m_timer.start(20);
    }

private:
    struct Step {
        std::function<bool(QWidget *)> matches;
        std::function<void(QWidget *)> act;
    };

    void poll()
    {
        if (m_steps.isEmpty()) {
            m_timer.stop();
            return;
        }
        QWidget *widget = QApplication::activePopupWidget();
        if (!widget)
            widget = QApplication::activeModalWidget();
        if (!widget || !m_steps.first().matches(widget))
            return;
        // Acting may open a dialog with its own event loop; this timer must keep firing in it.
        QTimer::singleShot(0, widget, [widget, act = m_steps.takeFirst().act] { act(widget); });
    }

    QList<Step> m_steps;
    QTimer m_timer;
};

} // namespace Sandpiper::Test
