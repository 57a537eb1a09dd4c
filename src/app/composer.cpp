#include "composer.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace Sandpiper {

Composer::Composer(QWidget *parent)
    : QWidget(parent)
    , m_editor(new QPlainTextEdit)
    , m_sendButton(new QPushButton(tr("Send")))
    , m_stopButton(new QPushButton(tr("Stop")))
    , m_attachButton(new QPushButton(tr("Attach…")))
    , m_models(new QComboBox)
    , m_network(new QCheckBox(tr("Network in sandbox")))
    , m_attachments(new QLabel)
{
    setAcceptDrops(true);
    m_editor->setPlaceholderText(tr("Ask anything. Enter sends, Shift+Enter starts a new line."));
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
    m_attachments->setForegroundRole(QPalette::PlaceholderText);
    m_attachments->setVisible(false);

    auto *options = new QHBoxLayout;
    options->addWidget(m_attachButton);
    options->addWidget(m_attachments, 1);
    options->addStretch();
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
    layout->addLayout(row);

    connect(m_sendButton, &QPushButton::clicked, this, &Composer::send);
    connect(m_stopButton, &QPushButton::clicked, this, &Composer::stopRequested);
    connect(m_attachButton, &QPushButton::clicked, this, &Composer::attachRequested);
    connect(m_network, &QCheckBox::toggled, this, &Composer::networkToggled);
    connect(m_models, &QComboBox::textActivated, this, &Composer::modelChosen);
}

bool Composer::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_editor && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) && !(key->modifiers() & Qt::ShiftModifier)) {
            send();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void Composer::send()
{
    const QString text = m_editor->toPlainText().trimmed();
    if (text.isEmpty() || m_busy)
        return;
    m_editor->clear();
    Q_EMIT sendRequested(text);
}

void Composer::setBusy(bool busy)
{
    m_busy = busy;
    m_sendButton->setVisible(!busy);
    m_stopButton->setVisible(busy);
}

void Composer::setModels(const QStringList &models, const QString &current)
{
    const QSignalBlocker blocker(m_models);
    m_models->clear();
    m_models->addItems(models);
    if (!models.contains(current))
        m_models->addItem(current);
    m_models->setCurrentText(current);
}

void Composer::setAttachments(const QStringList &names)
{
    m_attachments->setText(names.isEmpty() ? QString() : tr("Attached: %1").arg(names.join(QStringLiteral(", "))));
    m_attachments->setVisible(!names.isEmpty());
}

void Composer::setNetworkAllowed(bool allowed)
{
    const QSignalBlocker blocker(m_network);
    m_network->setChecked(allowed);
}

void Composer::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void Composer::dropEvent(QDropEvent *event)
{
    QStringList paths;
    for (const QUrl &url : event->mimeData()->urls()) {
        if (url.isLocalFile())
            paths << url.toLocalFile();
    }
    if (!paths.isEmpty())
        Q_EMIT filesDropped(paths);
}

} // namespace Sandpiper
