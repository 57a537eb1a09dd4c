#pragma once

#include <QPlainTextEdit>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;

namespace Sandpiper {

// The message box: Enter sends, Shift+Enter starts a new line; files are attached with the
// button or by dropping them; the model and the sandbox network switch sit beside it.
class Composer : public QWidget
{
    Q_OBJECT

public:
    explicit Composer(QWidget *parent = nullptr);

    QPlainTextEdit *editor() const { return m_editor; }
    QComboBox *modelPicker() const { return m_models; }
    QCheckBox *networkToggle() const { return m_network; }
    void setBusy(bool busy);
    void setModels(const QStringList &models, const QString &current);
    void setAttachments(const QStringList &names);
    void setNetworkAllowed(bool allowed);

Q_SIGNALS:
    void sendRequested(const QString &text);
    void stopRequested();
    void filesDropped(const QStringList &paths);
    void attachRequested();
    void modelChosen(const QString &model);
    void networkToggled(bool allowed);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void send();

    QPlainTextEdit *m_editor;
    QPushButton *m_sendButton;
    QPushButton *m_stopButton;
    QPushButton *m_attachButton;
    QComboBox *m_models;
    QCheckBox *m_network;
    QLabel *m_attachments;
    bool m_busy = false;
};

} // namespace Sandpiper
