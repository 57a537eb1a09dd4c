#include "chat/toolcallcard.h"

#include "chat/codeeditor.h"
#include "chat/datatableview.h"
#include "flowlayout.h"
#include "presenters/toolpresenter.h"

#include <QApplication>
#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QShortcut>
#include <QTextEdit>
#include <QToolButton>
#include <QVBoxLayout>

namespace Sandpiper {

ToolCallCard::ToolCallCard(const TurnItem &item, const QString &conversationFolder, const MarkdownContext &markdown,
                           QWidget *parent)
    : QFrame(parent)
    , m_presenter(ToolPresenter::forTool(item.call.name))
    , m_callKey(item.callKey)
    , m_callId(item.call.id)
    , m_folder(conversationFolder)
    , m_markdown(markdown)
    , m_header(new QToolButton)
    , m_details(new QWidget)
    , m_code(new CodeEditor)
    , m_output(new QPlainTextEdit)
    , m_liveLine(new QLabel)
    , m_attachments(new QVBoxLayout)
    , m_approval(new QWidget)
    , m_runButton(new QPushButton(tr("Run")))
    , m_editButton(new QPushButton(tr("Edit")))
    , m_denyReason(new QLineEdit)
    , m_progress(new QProgressBar)
{
    const QString title = m_presenter.title(item.call);
    m_title = title;
    setObjectName(QStringLiteral("toolCallCard"));
    setFrameShape(QFrame::StyledPanel);
    setAccessibleName(tr("Tool call %1").arg(title));

    m_header->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_header->setArrowType(Qt::RightArrow);
    m_header->setAutoRaise(true);
    m_header->setCheckable(true);
    m_header->setAccessibleName(tr("Show the call and its output"));
    connect(m_header, &QToolButton::toggled, this, &ToolCallCard::setExpanded);
    connect(m_header, &QToolButton::clicked, this, [this] { Q_EMIT activated(m_callKey); });

    m_code->setLanguage(m_presenter.argumentsLanguage());
    m_code->setAccessibleName(tr("Arguments of %1").arg(title));
    m_code->setAutoHeight(24);
    m_output->setReadOnly(true);
    m_output->setAccessibleName(tr("Output"));
    m_output->setFont(m_code->font());
    m_output->setMaximumBlockCount(5000);
    m_output->setFixedHeight(120);
    m_output->setVisible(false);
    m_output->setTabChangesFocus(true);

    m_liveLine->setFont(m_code->font());
    m_liveLine->setAccessibleName(tr("Latest output"));
    m_liveLine->setTextFormat(Qt::PlainText);
    m_liveLine->setVisible(false);

    auto *details = new QVBoxLayout(m_details);
    details->setContentsMargins(0, 0, 0, 0);
    details->addWidget(m_code);
    details->addWidget(m_output);
    m_details->setVisible(false);

    // The approval card.
    auto *alwaysButton = new QPushButton(m_presenter.alwaysAllowText());
    auto *denyButton = new QPushButton(tr("Deny"));
    m_runButton->setAccessibleName(tr("Run %1").arg(title));
    m_editButton->setAccessibleName(tr("Edit before running"));
    m_editButton->setVisible(m_presenter.isEditable());
    alwaysButton->setAccessibleName(QStringLiteral("%1: %2").arg(m_presenter.alwaysAllowText(), title));
    denyButton->setAccessibleName(tr("Deny running %1").arg(title));
    m_denyReason->setPlaceholderText(tr("Why not? (optional)"));
    m_denyReason->setToolTip(tr("The reason goes to the model with the denial. Enter denies."));
    m_denyReason->setAccessibleName(tr("Reason for denying"));
    m_denyReason->setMinimumWidth(m_denyReason->fontMetrics().horizontalAdvance(m_denyReason->placeholderText()) + 24);
    m_runButton->setToolTip(tr("Run it (Ctrl+Enter)"));
    m_runButton->setDefault(true);
    auto *approvalArea = new QVBoxLayout(m_approval);
    approvalArea->setContentsMargins(0, 0, 0, 0);
    if (const QString note = m_presenter.approvalNote(item.call); !note.isEmpty()) {
        auto *noteLabel = new QLabel(note);
        noteLabel->setWordWrap(true);
        noteLabel->setForegroundRole(QPalette::PlaceholderText);
        approvalArea->addWidget(noteLabel);
    }
    // The buttons wrap in a narrow window; none is cut off or pushed out of it.
    auto *approval = new FlowLayout;
    approvalArea->addLayout(approval);
    approval->addWidget(m_runButton);
    approval->addWidget(m_editButton);
    approval->addWidget(alwaysButton);
    approval->addWidget(m_denyReason);
    approval->addWidget(denyButton);
    m_approval->setVisible(false);
    m_focusChain = {m_header, m_code, m_output, m_runButton, m_editButton, alwaysButton, m_denyReason, denyButton};
    // Ctrl+Enter runs from anywhere in the card while it asks, the code box included.
    m_runShortcut = new QShortcut(this);
    m_runShortcut->setKeys({QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    m_runShortcut->setContext(Qt::WidgetWithChildrenShortcut);
    m_runShortcut->setEnabled(false);
    connect(m_runShortcut, &QShortcut::activated, m_runButton, &QPushButton::click);
    connect(m_denyReason, &QLineEdit::returnPressed, denyButton, &QPushButton::click);
    connect(m_runButton, &QPushButton::clicked, this, [this] {
        const QString text = m_code->toPlainText();
        const bool edited = m_editing;
        showApproval(false);
        if (edited)
            Q_EMIT approvedEdited(m_callKey, m_presenter.editedArguments(text));
        else
            Q_EMIT approved(m_callKey);
    });
    connect(m_editButton, &QPushButton::clicked, this, [this] {
        m_editing = true;
        m_code->setReadOnly(false);
        m_code->setFocus();
        m_runButton->setText(tr("Run as edited"));
        m_editButton->setEnabled(false);
    });
    connect(alwaysButton, &QPushButton::clicked, this, [this] {
        showApproval(false);
        Q_EMIT alwaysAllowed(m_callKey);
    });
    connect(denyButton, &QPushButton::clicked, this, [this] {
        showApproval(false);
        Q_EMIT denied(m_callKey, m_denyReason->text().trimmed());
    });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 6);
    layout->setSpacing(4);
    layout->addWidget(m_header, 0, Qt::AlignLeft);
    layout->addWidget(m_liveLine);
    m_progress->setAccessibleName(tr("Progress of %1").arg(title));
    m_progress->setVisible(false);
    layout->addWidget(m_details);
    layout->addWidget(m_progress);
    layout->addWidget(m_approval);
    layout->addLayout(m_attachments);
    m_elapsed.setInterval(1000);
    connect(&m_elapsed, &QTimer::timeout, this, &ToolCallCard::showElapsed);
    m_state = TurnItem::ToolState::Interrupted; // differs from any state, so the first showItem() shows it all
    showItem(item);
}

void ToolCallCard::showItem(const TurnItem &item)
{
    using State = TurnItem::ToolState;
    const QString title = m_presenter.title(item.call);
    const bool entered = std::exchange(m_state, item.toolState) != item.toolState;
    const QString arguments = item.preview.isEmpty() ? m_presenter.argumentsText(item.call) : item.preview;
    if (item.toolState != State::Running) {
        m_elapsed.stop();
        m_liveLine->setVisible(false);
    }
    if (!m_editing && m_code->toPlainText() != arguments)
        m_code->setPlainText(arguments);

    switch (item.toolState) {
    case State::Proposed:
        setHeader(tr("%1 · proposed").arg(title));
        break;
    case State::AwaitingApproval:
        setHeader(tr("%1 · waiting for approval").arg(title));
        if (entered) {
            setExpanded(true);
            showApproval(true);
            // A card made asking takes the focus once it is on the page (ChatPage does that).
            if (parentWidget())
                takeFocusForApproval();
        }
        break;
    case State::Running:
        showApproval(false);
        m_startedMs = item.startedMs;
        showElapsed();
        if (!m_elapsed.isActive() && m_startedMs > 0)
            m_elapsed.start();
        setOutput(item.liveOutput);
        showLiveLine(item.liveOutput);
        showProgress(item);
        break;
    case State::Finished:
        showApproval(false);
        m_progress->setVisible(false);
        setHeader(m_presenter.finishedHeader(item));
        setOutput(m_presenter.resultText(item));
        if (!std::exchange(m_resultShown, true))
            m_presenter.addResultWidgets(item, *this);
        break;
    case State::NotRun:
        showApproval(false);
        setHeader(tr("%1 · not run").arg(title));
        setOutput(item.modelText);
        // Why it did not run (arguments that do not parse, a denial) is shown, not folded away.
        if (entered && !item.modelText.isEmpty())
            m_header->setChecked(true);
        break;
    case State::Interrupted:
        showApproval(false);
        setHeader(tr("%1 · interrupted").arg(title));
        setOutput(item.modelText);
        break;
    }
}

// "Running Python… 1:05", updated every second while it runs.
void ToolCallCard::showElapsed()
{
    const QString &title = m_title;
    if (m_startedMs <= 0) {
        setHeader(tr("Running %1…").arg(title));
        return;
    }
    const qint64 seconds = std::max<qint64>(0, (QDateTime::currentMSecsSinceEpoch() - m_startedMs) / 1000);
    const QString elapsed = seconds < 60
                                ? tr("%n s", nullptr, int(seconds))
                                : QStringLiteral("%1:%2").arg(seconds / 60).arg(seconds % 60, 2, 10, QLatin1Char('0'));
    setHeader(tr("Running %1… %2").arg(title, elapsed));
}

void ToolCallCard::showLiveLine(const QString &output)
{
    const QString trimmed = output.trimmed();
    const QString line = trimmed.mid(trimmed.lastIndexOf(QLatin1Char('\n')) + 1).trimmed().left(300);
    if (m_liveLine->text() != line)
        m_liveLine->setText(line);
    m_liveLine->setVisible(!line.isEmpty());
}

void ToolCallCard::addResultWidget(QWidget *widget, Qt::Alignment alignment)
{
    m_attachments->addWidget(widget, 0, alignment);
}

void ToolCallCard::showTableSaved(int tableIndex, const QString &fileName, const QString &error)
{
    const QList<DataTableView *> tables = findChildren<DataTableView *>();
    if (tableIndex >= 0 && tableIndex < tables.size())
        tables.at(tableIndex)->showSaved(fileName, error);
}

void ToolCallCard::showProgress(const TurnItem &item)
{
    m_progress->setVisible(item.progress >= 0);
    if (item.progress < 0)
        return;
    // Without a total the bar only says that work goes on.
    m_progress->setRange(0, item.progressTotal > 0 ? 1000 : 0);
    if (item.progressTotal > 0)
        m_progress->setValue(int(std::clamp(item.progress / item.progressTotal, 0.0, 1.0) * 1000));
    m_progress->setFormat(
        item.progressMessage.isEmpty()
            ? tr("%1 of %2").arg(item.progress).arg(item.progressTotal)
            : tr("%1 of %2: %3").arg(item.progress).arg(item.progressTotal).arg(item.progressMessage));
    m_progress->setTextVisible(item.progressTotal > 0);
}

void ToolCallCard::setHeader(const QString &text)
{
    if (m_header->text() != text)
        m_header->setText(text);
}

void ToolCallCard::setOutput(const QString &text)
{
    if (text == m_shownOutput)
        return;
    // Live output grows at its end: only the new part is added.
    if (!m_shownOutput.isEmpty() && text.startsWith(m_shownOutput)) {
        m_output->moveCursor(QTextCursor::End);
        m_output->insertPlainText(text.mid(m_shownOutput.size()));
    } else {
        m_output->setPlainText(text);
    }
    m_shownOutput = text;
    m_output->verticalScrollBar()->setValue(m_output->verticalScrollBar()->maximum());
    m_output->setVisible(!text.trimmed().isEmpty());
}

void ToolCallCard::showApproval(bool visible)
{
    // A decision made from the keyboard leaves the focus on this card, not wherever hiding the
    // buttons would send it (the next widget of the window, such as New chat).
    if (!visible && isAncestorOf(QApplication::focusWidget()))
        m_header->setFocus(Qt::OtherFocusReason);
    m_approval->setVisible(visible);
    m_runShortcut->setEnabled(visible);
    if (!visible) {
        m_code->setReadOnly(true);
        m_editing = false;
    }
}

void ToolCallCard::takeFocusForApproval()
{
    // Run takes the focus, so that Enter runs, unless the user is typing (the next message, a
    // search): their next key must not run code they have not read. The window's own focus
    // counts, active or not: a window that lost its activation a moment ago has a typist still.
    const QWidget *focus = window()->focusWidget();
    const auto *line = qobject_cast<const QLineEdit *>(focus);
    const auto *plain = qobject_cast<const QPlainTextEdit *>(focus);
    const auto *rich = qobject_cast<const QTextEdit *>(focus);
    const bool typing = (line && !line->isReadOnly() && !line->text().isEmpty()) ||
                        (plain && !plain->isReadOnly() && !plain->document()->isEmpty()) ||
                        (rich && !rich->isReadOnly() && !rich->document()->isEmpty());
    if (!typing)
        m_runButton->setFocus(Qt::OtherFocusReason);
}

QList<QWidget *> ToolCallCard::focusChain() const
{
    QList<QWidget *> chain = m_focusChain;
    // What the call produced (tables, figures, files) follows, in the order it shows.
    for (int index = 0; index < m_attachments->count(); ++index) {
        if (QWidget *widget = m_attachments->itemAt(index)->widget()) {
            chain << widget;
            chain << widget->findChildren<QWidget *>();
        }
    }
    return chain;
}

void ToolCallCard::setExpanded(bool expanded)
{
    m_details->setVisible(expanded);
    m_header->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    if (m_header->isChecked() != expanded)
        m_header->setChecked(expanded);
}

bool ToolCallCard::isExpanded() const
{
    return m_details->isVisible();
}

void ToolCallCard::setSelected(bool selected)
{
    setFrameShadow(selected ? QFrame::Sunken : QFrame::Plain);
    setLineWidth(selected ? 2 : 1);
}

void ToolCallCard::mousePressEvent(QMouseEvent *event)
{
    QFrame::mousePressEvent(event);
    Q_EMIT activated(m_callKey);
}

} // namespace Sandpiper
