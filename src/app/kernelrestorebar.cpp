#include "kernelrestorebar.h"

#include <session/conversationsession.h>

#include <QApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>

namespace Sandpiper {

KernelRestoreBar::KernelRestoreBar(QWidget *parent)
    : QFrame(parent)
    , m_text(new QLabel)
    , m_progress(new QProgressBar)
    , m_restore(new QPushButton)
    , m_dismiss(new QPushButton)
    , m_stop(new QPushButton)
{
    setObjectName(QStringLiteral("kernelRestoreBar"));
    setAccessibleName(tr("Restore variables"));
    setFrameShape(QFrame::StyledPanel);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setAccessibleName(tr("Kernel state"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_progress);
    layout->addWidget(m_restore);
    layout->addWidget(m_dismiss);
    layout->addWidget(m_stop);
    connect(m_restore, &QPushButton::clicked, this, &KernelRestoreBar::restore);
    connect(m_dismiss, &QPushButton::clicked, this, [this] {
        if (m_session)
            m_session->dismissRestore();
    });
    connect(m_stop, &QPushButton::clicked, this, [this] {
        if (m_session)
            m_session->stop();
    });
    showState();
}

void KernelRestoreBar::setSession(ConversationSession *session)
{
    if (m_session)
        disconnect(m_session, nullptr, this, nullptr);
    m_session = session;
    if (session)
        connect(session, &ConversationSession::stateChanged, this, &KernelRestoreBar::showState);
    showState();
}

void KernelRestoreBar::showState()
{
    const bool hadFocus = isAncestorOf(QApplication::focusWidget());
    showStateOnly();
    // A button that hides with the focus would hand it to whatever comes next (Attach…): it stays
    // in the bar while the bar shows, else it goes back to where the user writes.
    if (!hadFocus || isAncestorOf(QApplication::focusWidget()))
        return;
    if (!isHidden() && !m_restore->isHidden())
        m_restore->setFocus(Qt::OtherFocusReason);
    else if (!isHidden() && !m_stop->isHidden())
        m_stop->setFocus(Qt::OtherFocusReason);
    else
        Q_EMIT focusReleased();
}

void KernelRestoreBar::showStateOnly()
{
    const SessionState state = m_session ? m_session->state() : SessionState{};
    const KernelRestore &restore = state.restore;
    setVisible(state.restoreOffered || state.restoring);
    m_progress->setVisible(state.restoring);
    m_stop->setVisible(state.restoring);
    m_restore->setVisible(!state.restoring);
    m_dismiss->setVisible(!state.restoring);
    m_restore->setEnabled(!state.busy());
    // Bringing the sandbox to another branch, or a lost kernel's variables back: the same replay.
    if (restore.branch) {
        m_restore->setText(tr("&Bring to this branch"));
        m_restore->setAccessibleName(tr("Bring the sandbox to this branch"));
        m_dismiss->setText(tr("Continue &without"));
        m_dismiss->setAccessibleName(tr("Continue without bringing the sandbox to this branch"));
        m_stop->setText(tr("S&top and continue without"));
        m_stop->setAccessibleName(tr("Stop bringing the sandbox to this branch"));
        m_progress->setAccessibleName(tr("Bringing the sandbox to this branch"));
    } else {
        m_restore->setText(tr("&Restore variables"));
        m_restore->setAccessibleName(tr("Restore variables"));
        m_dismiss->setText(tr("Not &now"));
        m_dismiss->setAccessibleName(tr("Do not restore the variables now"));
        m_stop->setText(tr("S&top restoring"));
        m_stop->setAccessibleName(tr("Stop restoring the variables"));
        m_progress->setAccessibleName(tr("Restoring variables"));
    }
    if (state.restoring) {
        m_progress->setRange(0, std::max(1, restore.cells));
        m_progress->setValue(restore.done);
        if (restore.branch)
            // The cell keeps its number on the branch; the count is of those that run again.
            m_text->setText(state.restoringCell.isEmpty() ? tr("Bringing the sandbox to this branch…")
                                                          : tr("Bringing the sandbox to this branch, %1 of %2: %3")
                                                                .arg(restore.done + 1)
                                                                .arg(restore.cells)
                                                                .arg(state.restoringCell));
        else
            m_text->setText(state.restoringCell.isEmpty() ? tr("Restoring the variables…")
                                                          : tr("Restoring the variables: %1 (%2 of %3)")
                                                                .arg(state.restoringCell)
                                                                .arg(restore.done + 1)
                                                                .arg(restore.cells));
    } else if (state.restoreOffered && restore.branch) {
        const int left = std::max(0, restore.cells - restore.done);
        QString text;
        if (!restore.failures.isEmpty())
            text = tr("Bringing the sandbox to this branch stopped at %1. Going on runs the %n cell(s) after it.", "",
                      left)
                       .arg(restore.failures.constLast());
        else
            text = tr("Python still holds another branch's variables. Running %n cell(s) of this branch again "
                      "brings the sandbox here.",
                      "", left);
        if (state.networkAllowed)
            text += QLatin1Char(' ') + tr("The sandbox may reach the network: those cells may act outside it again.");
        m_text->setText(text);
    } else if (state.restoreOffered) {
        m_text->setText(tr("Python's variables are gone (%1). Running the %n earlier successful cell(s) again "
                           "brings them back.",
                           "", restore.cells)
                            .arg(restore.reason));
    }
}

void KernelRestoreBar::restore()
{
    if (!m_session)
        return;
    const KernelRestore restore = m_session->state().restore;
    // On the way to a branch the folder is put back after the replay: writers may run again.
    bool rerunWriters = restore.branch;
    if (!rerunWriters && !restore.writers.isEmpty()) {
        QMessageBox box(QMessageBox::Question, tr("Restore variables"),
                        tr("%n of the cells write files in /mnt/data. Running them again may overwrite or "
                           "duplicate those files.",
                           "", int(restore.writers.size())),
                        QMessageBox::NoButton, this);
        box.setInformativeText(restore.writers.mid(0, 10).join(QLatin1Char('\n')));
        QPushButton *skip = box.addButton(tr("&Skip those cells"), QMessageBox::AcceptRole);
        QPushButton *all = box.addButton(tr("Run &all again"), QMessageBox::DestructiveRole);
        box.addButton(QMessageBox::Cancel);
        box.setDefaultButton(skip);
        box.exec();
        if (box.clickedButton() != skip && box.clickedButton() != all)
            return;
        rerunWriters = box.clickedButton() == all;
    }
    if (m_session)
        m_session->restoreVariables(rerunWriters);
}

} // namespace Sandpiper
