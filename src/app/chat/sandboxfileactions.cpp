#include "chat/sandboxfileactions.h"

#include "savelocation.h"

#include <logging.h>
#include <sandbox/sandboxfiletype.h>

#include <QDateTime>
#include <QDesktopServices>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUrl>
#include <QVBoxLayout>

namespace Sandpiper {

namespace {

constexpr qint64 copyChunk = 1 << 20;

// Copies left from earlier days: their viewers are long closed.
void removeOldCopies(const QString &base)
{
    const QDateTime dayAgo = QDateTime::currentDateTime().addDays(-1);
    for (const QFileInfo &entry : QDir(base).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QString error;
        if (entry.lastModified() < dayAgo && !SandboxFolder(entry.filePath()).removeAll(&error))
            qCWarning(lcApp) << error;
    }
}

QPushButton *addButton(QMessageBox &box, const QString &text, const QString &accessibleName,
                       QMessageBox::ButtonRole role)
{
    QPushButton *button = box.addButton(text, role);
    button->setAccessibleName(accessibleName);
    return button;
}

} // namespace

QString SandboxFileActions::copiesFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/opened");
}

void SandboxFileActions::open(QWidget *parent, const SandboxFolder &folder, const QString &name)
{
    SandboxFolder::Opened opened = folder.open(name, maxOpenBytes);
    if (!opened) {
        warn(parent, tr("Open file"), tr("“%1” was not opened. %2").arg(name, opened.error));
        return;
    }
    const QString fileName = QFileInfo(name).fileName();
    const SandboxFileType type =
        SandboxFileType::of(fileName, opened.file->peek(SandboxFileType::headBytes), opened.executable);
    if (type.verdict() == SandboxFileType::Verdict::Open) {
        openCopy(parent, opened, name);
        return;
    }
    const bool mayOpen = type.verdict() == SandboxFileType::Verdict::Ask;
    QMessageBox box(QMessageBox::Warning, tr("Open file"),
                    mayOpen ? tr("“%1” is of the type %2. Sandpiper does not know whether opening this type can run "
                                 "code in it. Open it anyway?")
                                  .arg(fileName, type.description())
                            : tr("“%1” is of the type %2. Opening it could run it, so Sandpiper does not open it.")
                                  .arg(fileName, type.description()),
                    QMessageBox::NoButton, parent);
    box.setTextFormat(Qt::PlainText);
    QPushButton *show =
        addButton(box, tr("Show in Folder"), tr("Show the file in its folder"), QMessageBox::ActionRole);
    QPushButton *asText =
        type.isText() ? addButton(box, tr("View as Text"), tr("View the file as plain text"), QMessageBox::ActionRole)
                      : nullptr;
    QPushButton *openAnyway =
        mayOpen ? addButton(box, tr("Open"), tr("Open the file with the desktop's viewer"), QMessageBox::AcceptRole)
                : nullptr;
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(show);
    box.exec();
    QAbstractButton *clicked = box.clickedButton();
    if (clicked == show)
        showInFolder(folder);
    else if (clicked && clicked == asText)
        showAsText(parent, opened, name);
    else if (clicked && clicked == openAnyway)
        openCopy(parent, opened, name);
}

void SandboxFileActions::openCopy(QWidget *parent, SandboxFolder::Opened &opened, const QString &name)
{
    // A copy only Sandpiper can reach: the sandbox may swap the original for something else
    // between this check and the moment the viewer reads it.
    const QString base = copiesFolder();
    QDir().mkpath(base);
    removeOldCopies(base);
    QTemporaryDir dir(base + QStringLiteral("/XXXXXX"));
    dir.setAutoRemove(false);
    QFile copy(dir.filePath(QFileInfo(name).fileName()));
    bool ok = dir.isValid() && copy.open(QIODevice::WriteOnly | QIODevice::NewOnly);
    for (qint64 left = opened.size; ok && left > 0;) {
        const QByteArray chunk = opened.file->read(std::min(left, copyChunk));
        ok = !chunk.isEmpty() && copy.write(chunk) == chunk.size();
        left -= chunk.size();
    }
    copy.close();
    if (!ok) {
        warn(parent, tr("Open file"),
             tr("“%1” was not opened: a copy could not be written to %2.").arg(name, QDir::toNativeSeparators(base)));
        return;
    }
    copy.setPermissions(QFileDevice::ReadOwner);
    if (!QDesktopServices::openUrl(QUrl::fromLocalFile(copy.fileName())))
        warn(parent, tr("Open file"), tr("No application on this desktop opens “%1”.").arg(name));
}

void SandboxFileActions::showAsText(QWidget *parent, SandboxFolder::Opened &opened, const QString &name)
{
    auto *dialog = new QDialog(parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("%1 (as text)").arg(QFileInfo(name).fileName()));
    auto *text = new QPlainTextEdit;
    text->setReadOnly(true);
    text->setAccessibleName(tr("Content of the file as text"));
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    QString content = QString::fromUtf8(opened.file->read(maxTextBytes));
    if (opened.size > maxTextBytes)
        content += QLatin1Char('\n') +
                   tr("[… the rest of the file, %1 in all, is not shown]").arg(SandboxFolder::formatBytes(opened.size));
    text->setPlainText(content);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(text);
    dialog->resize(800, 600);
    dialog->show();
}

void SandboxFileActions::saveAs(QWidget *parent, const SandboxFolder &folder, const QString &name,
                                const QString &filter)
{
    const QString target = QFileDialog::getSaveFileName(parent, tr("Save file"),
                                                        SaveLocation::suggest(QFileInfo(name).fileName()), filter);
    if (target.isEmpty())
        return;
    SaveLocation::remember(target);
    if (const QString error = folder.copyTo(name, target); !error.isEmpty())
        warn(parent, tr("Save file"), tr("“%1” was not saved. %2").arg(name, error));
}

void SandboxFileActions::warn(QWidget *parent, const QString &title, const QString &text)
{
    QMessageBox box(QMessageBox::Warning, title, text, QMessageBox::Ok, parent);
    box.setTextFormat(Qt::PlainText);
    box.exec();
}

void SandboxFileActions::showInFolder(const SandboxFolder &folder)
{
    QDesktopServices::openUrl(QUrl::fromLocalFile(folder.root()));
}

} // namespace Sandpiper
