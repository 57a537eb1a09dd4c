#include "chat/toolcallcard.h"

#include "charts/chartwidget.h"
#include "chat/codeeditor.h"
#include "chat/figureview.h"
#include "executionlistmodel.h"

#include <charts/chartspec.h>

#include <QDesktopServices>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

namespace Sandpiper {

ToolCallCard::ToolCallCard(const ToolCall &call, const QString &conversationFolder, QWidget *parent)
    : QFrame(parent)
    , m_call(call)
    , m_folder(conversationFolder)
    , m_header(new QToolButton)
    , m_details(new QWidget)
    , m_code(new CodeEditor)
    , m_output(new QPlainTextEdit)
    , m_attachments(new QVBoxLayout)
    , m_approval(new QWidget)
    , m_runButton(new QPushButton(tr("Run")))
    , m_editButton(new QPushButton(tr("Edit")))
    , m_denyReason(new QLineEdit)
{
    setObjectName(QStringLiteral("toolCallCard"));
    setFrameShape(QFrame::StyledPanel);
    setAccessibleName(tr("Tool call %1").arg(call.name));

    m_header->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_header->setArrowType(Qt::RightArrow);
    m_header->setAutoRaise(true);
    m_header->setCheckable(true);
    m_header->setAccessibleName(tr("Show the code and its output"));
    connect(m_header, &QToolButton::toggled, this, &ToolCallCard::setExpanded);
    connect(m_header, &QToolButton::clicked, this, [this] { Q_EMIT activated(m_call.id); });

    m_code->setAccessibleName(tr("Code"));
    m_code->setAutoHeight(24);
    m_output->setReadOnly(true);
    m_output->setAccessibleName(tr("Output"));
    m_output->setFont(m_code->font());
    m_output->setMaximumBlockCount(5000);
    m_output->setFixedHeight(120);
    m_output->setVisible(false);
    m_output->setTabChangesFocus(true);

    auto *details = new QVBoxLayout(m_details);
    details->setContentsMargins(0, 0, 0, 0);
    details->addWidget(m_code);
    details->addWidget(m_output);
    m_details->setVisible(false);

    // The approval card.
    auto *alwaysButton = new QPushButton(tr("Always allow in this chat"));
    auto *denyButton = new QPushButton(tr("Deny"));
    m_runButton->setAccessibleName(tr("Run the code"));
    m_editButton->setAccessibleName(tr("Edit the code before running it"));
    alwaysButton->setAccessibleName(tr("Always allow this tool in this conversation"));
    denyButton->setAccessibleName(tr("Deny running the code"));
    m_denyReason->setPlaceholderText(tr("Reason (optional, sent to the model)"));
    m_denyReason->setAccessibleName(tr("Reason for denying"));
    m_runButton->setDefault(true);
    auto *approval = new QHBoxLayout(m_approval);
    approval->setContentsMargins(0, 0, 0, 0);
    approval->addWidget(m_runButton);
    approval->addWidget(m_editButton);
    approval->addWidget(alwaysButton);
    approval->addStretch(1);
    approval->addWidget(m_denyReason);
    approval->addWidget(denyButton);
    m_approval->setVisible(false);
    connect(m_runButton, &QPushButton::clicked, this, [this] {
        const QString code = m_code->toPlainText();
        showApproval(false);
        if (m_editing)
            Q_EMIT approvedEdited(m_call.id, code);
        else
            Q_EMIT approved(m_call.id);
    });
    connect(m_editButton, &QPushButton::clicked, this, [this] {
        m_editing = true;
        m_code->setReadOnly(false);
        m_code->setFocus();
        m_runButton->setText(tr("Run edited code"));
        m_editButton->setEnabled(false);
    });
    connect(alwaysButton, &QPushButton::clicked, this, [this] {
        showApproval(false);
        Q_EMIT alwaysAllowed(m_call.id);
    });
    connect(denyButton, &QPushButton::clicked, this, [this] {
        showApproval(false);
        Q_EMIT denied(m_call.id, m_denyReason->text().trimmed());
    });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 6);
    layout->setSpacing(4);
    layout->addWidget(m_header, 0, Qt::AlignLeft);
    layout->addWidget(m_details);
    layout->addWidget(m_approval);
    layout->addLayout(m_attachments);
    setHeader(tr("%1 · proposed").arg(toolLabel()));
    setCode(call.arguments);
}

QString ToolCallCard::toolLabel() const
{
    if (m_call.name == QLatin1String("execute_python_code"))
        return tr("Python");
    if (m_call.name == QLatin1String("search_web"))
        return tr("web search");
    if (m_call.name == QLatin1String("fetch_url"))
        return tr("page reader");
    if (m_call.name == QLatin1String("create_chart"))
        return tr("chart");
    return m_call.name;
}

void ToolCallCard::setSources(const QList<WebSource> &sources, const QString &note)
{
    for (const WebSource &source : sources) {
        const QUrl url(source.url);
        auto *label =
            new QLabel(QStringLiteral("<b>[%1]</b> <a href=\"%2\">%3</a> <span style=\"color: gray;\">%4</span>"
                                      "<br><small>%5</small>")
                           .arg(source.number)
                           .arg(url.toString(QUrl::FullyEncoded).toHtmlEscaped(),
                                (source.title.isEmpty() ? source.url : source.title).toHtmlEscaped(),
                                url.host().toHtmlEscaped(), source.snippet.left(220).toHtmlEscaped()));
        label->setWordWrap(true);
        label->setOpenExternalLinks(true);
        label->setTextInteractionFlags(Qt::TextBrowserInteraction);
        label->setAccessibleName(tr("Source %1: %2").arg(source.number).arg(source.title));
        m_attachments->addWidget(label);
    }
    if (!note.isEmpty()) {
        auto *label = new QLabel(note);
        label->setWordWrap(true);
        label->setForegroundRole(QPalette::PlaceholderText);
        m_attachments->addWidget(label);
    }
}

void ToolCallCard::showChart(const QString &arguments)
{
    ChartSpecError error;
    const auto spec = ChartSpec::fromToolArguments(arguments, &error);
    if (!spec)
        return; // the model was told what was wrong; the card says "not run"
    auto *chart = new ChartWidget(*spec);
    m_attachments->addWidget(chart);
}

void ToolCallCard::setHeader(const QString &text)
{
    m_header->setText(text);
}

void ToolCallCard::setCode(const QString &code)
{
    m_code->setPlainText(code);
}

void ToolCallCard::showApproval(bool visible)
{
    m_awaiting = visible;
    m_approval->setVisible(visible);
    if (!visible) {
        m_code->setReadOnly(true);
        setHeader(tr("Running %1…").arg(toolLabel()));
    }
}

void ToolCallCard::setAwaitingApproval(const QString &code)
{
    setCode(code);
    setHeader(tr("%1 · waiting for approval").arg(toolLabel()));
    setExpanded(true);
    showApproval(true);
    m_runButton->setFocus();
}

bool ToolCallCard::isAwaitingApproval() const
{
    return m_awaiting;
}

void ToolCallCard::setRunning(const QString &code)
{
    setCode(code);
    showApproval(false);
    setHeader(tr("Running %1…").arg(toolLabel()));
}

void ToolCallCard::appendOutput(const QString &stream, const QString &text)
{
    Q_UNUSED(stream)
    m_output->setVisible(true);
    m_output->moveCursor(QTextCursor::End);
    m_output->insertPlainText(text);
    m_output->verticalScrollBar()->setValue(m_output->verticalScrollBar()->maximum());
}

void ToolCallCard::setFinished(const QString &text, const std::optional<ExecutionResult> &execution)
{
    showApproval(false);
    if (!execution) {
        const bool failed = text.startsWith(QLatin1String("Error")) || text.startsWith(QLatin1String("Not run")) ||
                            text.startsWith(QLatin1String("Cancelled"));
        if (text.contains(QLatin1String("interrupted")))
            setHeader(tr("%1 · interrupted").arg(toolLabel()));
        else
            setHeader(failed ? tr("%1 · not run").arg(toolLabel()) : tr("Used %1").arg(toolLabel()));
        m_output->setPlainText(text);
        m_output->setVisible(true);
        return;
    }
    const ExecutionResult &r = *execution;
    const QString seconds = QLocale().toString(double(r.durationMs) / 1000.0, 'f', 2);
    QString status = ExecutionListModel::statusLabel(r.status);
    if (r.status == ExecutionResult::Status::Interrupted && r.timedOut)
        status = tr("timed out");
    setHeader(tr("Ran %1 · %2 s · %3").arg(toolLabel(), seconds, status));
    QString output = r.standardOutput;
    if (!r.standardError.isEmpty())
        output += r.standardError;
    if (!r.value.isEmpty())
        output += (output.isEmpty() || output.endsWith(QLatin1Char('\n')) ? QString() : QStringLiteral("\n")) + r.value;
    if (!r.errorType.isEmpty() || r.status == ExecutionResult::Status::Crashed ||
        r.status == ExecutionResult::Status::Unavailable)
        output += QLatin1Char('\n') + (r.traceback.isEmpty() ? r.errorMessage : r.traceback);
    m_output->setPlainText(output.trimmed());
    m_output->setVisible(!output.trimmed().isEmpty());
    for (const QString &figure : r.figures) {
        auto *view = new FigureView(m_folder + QLatin1Char('/') + figure, 640);
        m_attachments->addWidget(view, 0, Qt::AlignLeft);
    }
    addFiles(r.files);
}

void ToolCallCard::addFiles(const QStringList &files)
{
    for (const QString &file : files) {
        const QString path = m_folder + QLatin1Char('/') + file;
        auto *row = new QHBoxLayout;
        auto *name = new QLabel(QStringLiteral("📄 %1").arg(file.toHtmlEscaped()));
        auto *open = new QPushButton(tr("Open"));
        auto *save = new QPushButton(tr("Save…"));
        open->setAccessibleName(tr("Open %1").arg(file));
        save->setAccessibleName(tr("Save %1").arg(file));
        connect(open, &QPushButton::clicked, this, [path] { QDesktopServices::openUrl(QUrl::fromLocalFile(path)); });
        connect(save, &QPushButton::clicked, this, [this, path, file] {
            const QString target = QFileDialog::getSaveFileName(this, tr("Save file"), QFileInfo(file).fileName());
            if (target.isEmpty())
                return;
            QFile::remove(target);
            if (!QFile::copy(path, target))
                QMessageBox::warning(this, tr("Save file"), tr("The file could not be saved to %1.").arg(target));
        });
        row->addWidget(name);
        row->addWidget(open);
        row->addWidget(save);
        row->addStretch(1);
        m_attachments->addLayout(row);
    }
}

void ToolCallCard::setInterrupted()
{
    showApproval(false);
    setHeader(tr("%1 · interrupted").arg(toolLabel()));
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
    Q_EMIT activated(m_call.id);
}

} // namespace Sandpiper
