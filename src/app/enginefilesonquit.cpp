#include "enginefilesonquit.h"

#include <sandbox/sandboxfolder.h>

#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QWidget>

namespace Sandpiper {

namespace {

// Names listed in the question; the rest are counted.
constexpr int listedNames = 8;

} // namespace

EngineFilesOnQuit::EngineFilesOnQuit(QWidget *window)
    : QObject(window)
    , m_window(window)
{}

QString EngineFilesOnQuit::question(const QList<EngineFiles::Waiting> &waiting)
{
    qint64 bytes = 0;
    QStringList names;
    for (const EngineFiles::Waiting &file : waiting) {
        bytes += file.size;
        if (names.size() < listedNames)
            names << QStringLiteral("• %1 (%2)").arg(file.name, SandboxFolder::formatBytes(file.size));
    }
    if (waiting.size() > listedNames)
        names << tr("and %n more", nullptr, int(waiting.size()) - listedNames);
    return tr("%n file(s) that the code made (%1 in all) are only in the sandbox on the Docker engine, and are lost "
              "when Sandpiper quits:",
              nullptr, int(waiting.size()))
               .arg(SandboxFolder::formatBytes(bytes)) +
           QStringLiteral("\n\n") + names.join(QLatin1Char('\n'));
}

bool EngineFilesOnQuit::mayClose()
{
    if (m_settled)
        return true;
    if (m_busy)
        return false;
    const QList<EngineFiles::Waiting> waiting = EngineFiles::notFetched();
    if (waiting.isEmpty())
        return true;
    m_busy = true;
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Files on the Docker Engine"), question(waiting),
                                QMessageBox::NoButton, m_window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setAccessibleName(tr("Files on the Docker engine"));
    QPushButton *copy = box->addButton(tr("&Copy Here, Then Quit"), QMessageBox::AcceptRole);
    QPushButton *leave = box->addButton(tr("&Quit Without Them"), QMessageBox::DestructiveRole);
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(copy);
    connect(box, &QMessageBox::finished, this, [this, box, copy, leave, waiting] {
        if (box->clickedButton() == leave)
            closeNow();
        else if (box->clickedButton() == copy)
            QCoro::connect(copyThenClose(waiting), this, [] {});
        else
            m_busy = false;
    });
    box->open();
    return false;
}

QCoro::Task<EngineFilesOnQuit::Copied> EngineFilesOnQuit::copyHere(QList<EngineFiles::Waiting> waiting,
                                                                   QPointer<QWidget> parent)
{
    Copied copied;
    QPointer<QProgressDialog> progress = new QProgressDialog(tr("Copying the files from the Docker engine…"),
                                                             tr("&Stop"), 0, int(waiting.size()), parent);
    progress->setAttribute(Qt::WA_DeleteOnClose);
    progress->setWindowTitle(tr("Copying Files"));
    progress->setAccessibleName(tr("Copying the files from the Docker engine"));
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(0);
    progress->setValue(0);
    for (int i = 0; i < waiting.size(); ++i) {
        const EngineFiles::Waiting &file = waiting.at(i);
        progress->setLabelText(
            tr("Copying “%1” (%2) from the Docker engine…").arg(file.name, SandboxFolder::formatBytes(file.size)));
        const QString error = co_await EngineFiles::fetch(file.folder, file.name);
        // The dialog goes with the window; a stop stops before the next file.
        if (!progress || progress->wasCanceled()) {
            copied.stopped = true;
            break;
        }
        if (!error.isEmpty())
            copied.errors << error;
        progress->setValue(i + 1);
    }
    if (progress)
        progress->close();
    co_return copied;
}

QCoro::Task<> EngineFilesOnQuit::copyThenClose(QList<EngineFiles::Waiting> waiting)
{
    QPointer<EngineFilesOnQuit> self(this);
    const Copied copied = co_await copyHere(waiting, m_window);
    if (!self || !m_window)
        co_return;
    if (copied.stopped) {
        m_busy = false;
        co_return;
    }
    if (copied.errors.isEmpty()) {
        closeNow();
        co_return;
    }
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Files on the Docker Engine"),
                                tr("Some files could not be copied here:") + QStringLiteral("\n\n") +
                                    copied.errors.join(QLatin1Char('\n')),
                                QMessageBox::NoButton, m_window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setAccessibleName(tr("Files not copied"));
    QPushButton *quit = box->addButton(tr("&Quit Anyway"), QMessageBox::DestructiveRole);
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(QMessageBox::Cancel);
    connect(box, &QMessageBox::finished, this, [this, box, quit] {
        if (box->clickedButton() == quit)
            closeNow();
        else
            m_busy = false;
    });
    box->open();
}

void EngineFilesOnQuit::closeNow()
{
    m_settled = true;
    m_busy = false;
    if (m_window)
        m_window->close();
}

} // namespace Sandpiper
