#include "composer.h"

#include "attachmentchip.h"
#include "chat/sandboximage.h"
#include "composereditor.h"
#include "flowlayout.h"

#include <sandbox/sandboxfolder.h>

#include <QAbstractItemView>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QDragEnterEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMimeData>
#include <QPushButton>
#include <QSignalBlocker>
#include <QStandardItemModel>
#include <QToolButton>
#include <QVBoxLayout>

namespace Sandpiper {

Composer::Composer(QWidget *parent)
    : QWidget(parent)
    , m_editor(new ComposerEditor)
    , m_sendButton(new QPushButton(tr("Send")))
    , m_stopButton(new QPushButton(tr("Stop")))
    , m_attachButton(new QPushButton(tr("Attach…")))
    , m_models(new QComboBox)
    , m_network(new QCheckBox(tr("Network in sandbox")))
    , m_attachmentStrip(new QWidget)
    , m_imageStrip(new QWidget)
    , m_completer(new QCompleter(this))
    , m_promptModel(new QStandardItemModel(this))
{
    setAcceptDrops(true);
    m_editor->setPlaceholderText(tr("Ask anything. Enter sends, Shift+Enter starts a new line, / offers prompts, "
                                    "Ctrl+V pastes images."));
    m_editor->setAccessibleName(tr("Message"));
    m_editor->setTabChangesFocus(true);
    m_editor->setFixedHeight(84);
    m_editor->installEventFilter(this);
    m_editor->setAcceptDrops(false); // drops go to the composer: they attach files
    m_sendButton->setAccessibleName(tr("Send message"));
    m_stopButton->setAccessibleName(tr("Stop the answer"));
    m_stopButton->setToolTip(tr("Stop (Esc)"));
    m_stopButton->setVisible(false);
    m_attachButton->setAccessibleName(tr("Attach files"));
    m_attachButton->setToolTip(tr("Files are copied to the conversation folder, /mnt/data in the sandbox."));
    m_models->setAccessibleName(tr("Model"));
    m_models->setEditable(true);
    m_models->setInsertPolicy(QComboBox::NoInsert);
    m_models->setMinimumContentsLength(18);
    m_models->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_network->setAccessibleName(tr("Allow network access in this conversation's sandbox"));
    m_attachmentStrip->setAccessibleName(tr("Files for the next message"));
    m_attachmentStrip->setVisible(false);
    new FlowLayout(m_attachmentStrip);
    m_imageStrip->setAccessibleName(tr("Images for the next message"));
    m_imageStrip->setVisible(false);
    auto *thumbnails = new QHBoxLayout(m_imageStrip);
    thumbnails->setContentsMargins(0, 0, 0, 0);
    thumbnails->addStretch();
    connect(m_editor, &ComposerEditor::imagePasted, this, &Composer::imagePasted);
    connect(m_editor, &ComposerEditor::filesPasted, this, &Composer::filesDropped);
    connect(m_editor, &ComposerEditor::pasteRefused, this, &Composer::pasteRefused);

    // In a narrow window the options wrap onto more rows instead of being cut short.
    auto *options = new FlowLayout;
    options->addWidget(m_attachButton);
    options->addWidget(m_network);
    options->addWidget(m_models);

    auto *row = new QHBoxLayout;
    row->addWidget(m_editor, 1);
    auto *buttons = new QVBoxLayout;
    buttons->addStretch();
    buttons->addWidget(m_sendButton);
    buttons->addWidget(m_stopButton);
    row->addLayout(buttons);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 4, 12, 8);
    layout->addLayout(options);
    layout->addWidget(m_attachmentStrip);
    layout->addWidget(m_imageStrip);
    layout->addLayout(row);

    m_completer->setModel(m_promptModel);
    m_completer->setWidget(m_editor);
    m_completer->setCompletionMode(QCompleter::PopupCompletion);
    m_completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_completer->setFilterMode(Qt::MatchContains);
    m_completer->setCompletionRole(Qt::DisplayRole);
    m_completer->popup()->setAccessibleName(tr("Prompts of the MCP servers"));
    connect(m_editor, &QPlainTextEdit::textChanged, this, &Composer::offerPrompts);
    connect(m_completer, qOverload<const QModelIndex &>(&QCompleter::activated), this,
            [this](const QModelIndex &index) {
                const int chosen = index.data(Qt::UserRole).toInt();
                if (chosen >= 0 && chosen < m_prompts.size())
                    Q_EMIT promptChosen(m_prompts.at(chosen));
            });

    connect(m_sendButton, &QPushButton::clicked, this, &Composer::send);
    connect(m_stopButton, &QPushButton::clicked, this, &Composer::stopRequested);
    connect(m_attachButton, &QPushButton::clicked, this, &Composer::attachRequested);
    connect(m_network, &QCheckBox::toggled, this, &Composer::networkToggled);
    connect(m_models, &QComboBox::textActivated, this, &Composer::modelChosen);
}

QPlainTextEdit *Composer::editor() const
{
    return m_editor;
}

bool Composer::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_editor && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        // Enter while prompts are offered takes the one chosen (or the first), never sends "/...".
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) && m_completer->popup()->isVisible()) {
            QModelIndex index = m_completer->popup()->currentIndex();
            if (!index.isValid())
                index = m_completer->completionModel()->index(0, 0);
            m_completer->popup()->hide();
            const int chosen = index.isValid() ? index.data(Qt::UserRole).toInt() : -1;
            if (chosen >= 0 && chosen < m_prompts.size())
                Q_EMIT promptChosen(m_prompts.at(chosen));
            return true;
        }
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) && !(key->modifiers() & Qt::ShiftModifier)) {
            send();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void Composer::setPrompts(const QList<McpPromptInfo> &prompts)
{
    if (prompts == m_prompts)
        return;
    m_prompts = prompts;
    m_promptModel->clear();
    for (int row = 0; row < prompts.size(); ++row) {
        const McpPromptInfo &prompt = prompts.at(row);
        const QString description = prompt.description.isEmpty() ? prompt.title : prompt.description;
        auto *item =
            new QStandardItem(description.isEmpty() ? tr("/%1 (%2)").arg(prompt.name, prompt.server)
                                                    : tr("/%1 (%2): %3").arg(prompt.name, prompt.server, description));
        item->setData(row, Qt::UserRole);
        item->setToolTip(description);
        m_promptModel->appendRow(item);
    }
    offerPrompts();
}

void Composer::offerPrompts()
{
    const QString text = m_editor->toPlainText();
    const bool asking =
        text.startsWith(QLatin1Char('/')) && !text.contains(QLatin1Char('\n')) && !text.contains(QLatin1Char(' '));
    if (!asking) {
        m_completer->popup()->hide();
        return;
    }
    if (text == QLatin1String("/"))
        Q_EMIT promptsWanted();
    if (m_prompts.isEmpty())
        return;
    m_completer->setCompletionPrefix(text);
    QRect place = m_editor->cursorRect();
    place.setWidth(std::max(360, m_completer->popup()->sizeHintForColumn(0) + 24));
    m_completer->complete(place);
}

void Composer::insertTemplate(const QString &text)
{
    m_completer->popup()->hide();
    const QSignalBlocker blocker(m_editor);
    m_editor->setPlainText(text);
    m_editor->moveCursor(QTextCursor::End);
    m_editor->setFocus();
}

void Composer::send()
{
    const QString text = m_editor->toPlainText().trimmed();
    if ((text.isEmpty() && m_images.isEmpty() && m_attachments.isEmpty()) || m_busy)
        return;
    m_editor->clear();
    Q_EMIT sendRequested(text);
}

void Composer::setBusy(bool busy)
{
    m_busy = busy;
    // The button that goes hands the keyboard to the one that comes, and Stop to the message box:
    // typing the next message comes next (it went to whatever widget followed in the window).
    const bool sendFocused = m_sendButton->hasFocus();
    const bool stopFocused = m_stopButton->hasFocus();
    m_sendButton->setVisible(!busy);
    m_stopButton->setVisible(busy);
    if (sendFocused && busy)
        m_stopButton->setFocus();
    else if (stopFocused && !busy)
        m_editor->setFocus();
}

void Composer::setModels(const QStringList &models, const QString &current)
{
    const QSignalBlocker blocker(m_models);
    m_models->clear();
    m_models->addItems(models);
    if (!models.contains(current))
        m_models->addItem(current);
    showModel(current);
}

void Composer::showModel(const QString &model)
{
    m_models->setCurrentText(model);
    // A long name shows its beginning, where models differ ("qwen2.5-coder-…"), not its end.
    m_models->lineEdit()->setCursorPosition(0);
}

void Composer::setAttachments(const QStringList &names, const QString &folder)
{
    if (names == m_attachments)
        return;
    m_attachments = names;
    QLayout *chips = m_attachmentStrip->layout();
    // A chip goes once its own click is delivered: its remove button is what changed the list.
    bool focused = false;
    while (QLayoutItem *item = chips->takeAt(0)) {
        if (QWidget *chip = item->widget()) {
            focused = focused || chip->isAncestorOf(QApplication::focusWidget());
            chip->hide();
            chip->deleteLater();
        }
        delete item;
    }
    const SandboxFolder files(folder);
    QWidget *before = m_attachButton; // Tab goes from Attach… through the chips
    for (const QString &name : names) {
        auto *chip = new AttachmentChip(name, files.fileSize(name), true, m_attachmentStrip);
        connect(chip, &AttachmentChip::removeRequested, this, &Composer::attachmentRemoved);
        chips->addWidget(chip);
        chip->show();
        setTabOrder(before, chip->removeButton());
        before = chip->removeButton();
    }
    m_attachmentStrip->setVisible(!names.isEmpty());
    // Focus stays in the row of chips, else goes back to the text.
    if (focused)
        (before == m_attachButton ? static_cast<QWidget *>(m_editor) : before)->setFocus();
}

void Composer::setImages(const QStringList &names, const QString &folder)
{
    if (names == m_images)
        return;
    m_images = names;
    auto *row = static_cast<QHBoxLayout *>(m_imageStrip->layout());
    qDeleteAll(m_imageStrip->findChildren<QToolButton *>(Qt::FindDirectChildrenOnly));
    const SandboxFolder files(folder);
    for (const QString &name : names) {
        auto *thumbnail = new QToolButton(m_imageStrip);
        QString problem;
        const QImage image = SandboxImage::load(files, name, 96, &problem);
        if (image.isNull())
            thumbnail->setText(tr("⚠ %1").arg(name));
        else
            thumbnail->setIcon(QPixmap::fromImage(image));
        thumbnail->setIconSize(image.isNull() ? QSize() : image.size().boundedTo(QSize(96, 72)));
        thumbnail->setToolButtonStyle(image.isNull() ? Qt::ToolButtonTextOnly : Qt::ToolButtonIconOnly);
        thumbnail->setToolTip(tr("%1 — click to take it off this message").arg(problem.isEmpty() ? name : problem));
        thumbnail->setAccessibleName(tr("Image %1; press to take it off this message").arg(name));
        thumbnail->setFocusPolicy(Qt::StrongFocus);
        connect(thumbnail, &QToolButton::clicked, this, [this, name] { Q_EMIT imageRemoved(name); });
        row->insertWidget(row->count() - 1, thumbnail);
    }
    m_imageStrip->setVisible(!names.isEmpty());
}

void Composer::returnDraft(const QString &text)
{
    const QString typed = m_editor->toPlainText();
    const QSignalBlocker blocker(m_editor);
    m_editor->setPlainText(typed.trimmed().isEmpty() ? text : text + QStringLiteral("\n\n") + typed);
    m_editor->moveCursor(QTextCursor::End);
}

void Composer::setNetworkAllowed(bool allowed)
{
    const QSignalBlocker blocker(m_network);
    m_network->setChecked(allowed);
}

void Composer::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls() || event->mimeData()->hasImage())
        event->acceptProposedAction();
}

void Composer::dropEvent(QDropEvent *event)
{
    QStringList paths;
    for (const QUrl &url : event->mimeData()->urls()) {
        if (url.isLocalFile())
            paths << url.toLocalFile();
    }
    if (!paths.isEmpty()) {
        Q_EMIT filesDropped(paths);
        return;
    }
    // An image dragged out of a browser or an image viewer, without a file behind it.
    if (event->mimeData()->hasImage()) {
        const QImage image = qvariant_cast<QImage>(event->mimeData()->imageData());
        if (!image.isNull())
            Q_EMIT imagePasted(image);
    }
}

} // namespace Sandpiper
