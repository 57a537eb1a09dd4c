#include "chartviews/chartwidget.h"

#include "chartviews/chartcontents.h"
#include "chartviews/chartformat.h"
#include "savelocation.h"

#include <QAbstractBarSeries>
#include <QAction>
#include <QAreaSeries>
#include <QBarSet>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QDir>
#include <QFileDialog>
#include <QGraphicsLayout>
#include <QGuiApplication>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QPieSeries>
#include <QPieSlice>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QStandardPaths>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>

namespace Sandpiper {

namespace {

constexpr int inlineHeight = 320; // tall enough to read, short enough to scroll past in a chat
constexpr double zoomStep = 1.25;
constexpr double hiddenAlpha = 0.3;
constexpr double smallestLabelledSlice = 0.03; // thinner slices are named by the legend and the tooltip

} // namespace

ChartWidget::ChartWidget(const ChartSpec &spec, QWidget *parent)
    : QChartView(new QChart, parent)
    , m_spec(spec)
{
    chart()->setTitle(m_spec.title);
    chart()->setLocalizeNumbers(true);
    chart()->setBackgroundRoundness(0);
    chart()->layout()->setContentsMargins(0, 0, 0, 0);
    chart()->setMargins(QMargins(10, 10, 10, 6));
    // A round pie leaves room beside it; everything else is wide and keeps its legend below.
    chart()->legend()->setAlignment(m_spec.isPie() ? Qt::AlignRight : Qt::AlignBottom);
    // Lines and dots show as such in the legend; filled shapes keep squares, which the markers
    // draw in the series' colour (Qt draws "from series" squares empty).
    if (m_spec.type == ChartSpec::Type::Line || m_spec.type == ChartSpec::Type::Scatter)
        chart()->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);

    m_contents = ChartContents::build(m_spec, chart());
    connectHover();
    m_hidden = QList<bool>(m_spec.isPie() ? m_spec.categories.size() : m_spec.series.size(), false);
    chart()->legend()->setVisible(m_spec.isPie() || m_spec.series.size() > 1);
    connectLegend();
    createActions();

    setRenderHint(QPainter::Antialiasing);
    setFrameShape(QFrame::NoFrame);
    setFocusPolicy(Qt::StrongFocus);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    if (m_spec.type == ChartSpec::Type::Bar || m_spec.type == ChartSpec::Type::StackedBar)
        setRubberBand(QChartView::HorizontalRubberBand); // along the categories; values keep their zero
    else if (m_spec.type == ChartSpec::Type::HorizontalBar)
        setRubberBand(QChartView::VerticalRubberBand);
    else if (!m_spec.isPie())
        setRubberBand(QChartView::RectangleRubberBand);

    const QString kind = ChartFormat::typeDisplayName(m_spec.type);
    setAccessibleName(m_spec.title.isEmpty() ? kind : m_spec.title);
    QStringList entries;
    for (qsizetype i = 0; i < entryCount(); ++i)
        entries << (m_spec.isPie() ? m_spec.categories[i] : ChartFormat::seriesName(m_spec, i));
    setAccessibleDescription(tr("%1 of %2. Plus and minus zoom, 0 resets the zoom, the menu key offers saving "
                                "and copying.")
                                 .arg(kind, QLocale().createSeparatedList(entries)));
    applyTheme();
}

ChartWidget::~ChartWidget() = default;

QSize ChartWidget::sizeHint() const
{
    return {640, inlineHeight};
}

QSize ChartWidget::minimumSizeHint() const
{
    return {240, 200};
}

void ChartWidget::connectHover()
{
    for (qsizetype i = 0; i < m_contents.xySeries.size(); ++i) {
        const auto show = [this, i](const QPointF &point, bool state) {
            showPointToolTip(i, point, state);
        };
        if (auto *area = qobject_cast<QAreaSeries *>(m_contents.xySeries[i]))
            connect(area, &QAreaSeries::hovered, this, show);
        else
            connect(m_contents.pointSeries[i], &QXYSeries::hovered, this, show);
    }
    if (m_contents.bars) {
        connect(m_contents.bars, &QAbstractBarSeries::hovered, this, [this](bool status, int index, QBarSet *set) {
            showToolTip(toolTipText(m_contents.barSets.indexOf(set), index), status);
        });
    }
    if (m_contents.pie) {
        connect(m_contents.pie, &QPieSeries::hovered, this, [this](QPieSlice *slice, bool state) {
            slice->setExploded(state);
            showToolTip(toolTipText(0, m_contents.slices.indexOf(slice)), state);
        });
    }
}

void ChartWidget::updatePieLabels()
{
    for (qsizetype i = 0; i < m_contents.slices.size(); ++i) {
        QPieSlice *slice = m_contents.slices[i];
        slice->setLabel(tr("%1 %2%", "pie slice label: name, percentage")
                            .arg(m_spec.categories[i], QLocale().toString(slice->percentage() * 100, 'f', 1)));
        slice->setLabelVisible(!m_hidden.value(i) && slice->percentage() >= smallestLabelledSlice);
    }
}

void ChartWidget::connectLegend()
{
    m_markers = chart()->legend()->markers();
    for (qsizetype i = 0; i < m_markers.size(); ++i) {
        connect(m_markers[i], &QLegendMarker::clicked, this, [this, i] { setEntryVisible(i, !isEntryVisible(i)); });
        // A pie's markers would carry the slice labels, percentages included.
        if (m_spec.isPie())
            m_markers[i]->setLabel(m_spec.categories.value(i));
    }
}

QLegendMarker *ChartWidget::legendMarker(qsizetype entry) const
{
    return m_markers.value(entry);
}

void ChartWidget::createActions()
{
    auto add = [this](const QString &text, const QList<QKeySequence> &keys, auto slot) {
        auto *action = new QAction(text, this);
        action->setShortcuts(keys);
        // Plain keys like + and 0 must only act on the chart that has the focus.
        action->setShortcutContext(Qt::WidgetShortcut);
        connect(action, &QAction::triggered, this, slot);
        addAction(action);
        return action;
    };
    m_zoomInAction = add(tr("Zoom In"), {QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal), QKeySequence::ZoomIn},
                         [this] { zoomIn(); });
    m_zoomOutAction = add(tr("Zoom Out"), {QKeySequence(Qt::Key_Minus), QKeySequence::ZoomOut}, [this] { zoomOut(); });
    m_resetZoomAction =
        add(tr("Reset Zoom"), {QKeySequence(Qt::Key_0), QKeySequence(Qt::CTRL | Qt::Key_0)}, [this] { resetZoom(); });
    m_copyImageAction = add(tr("Copy Image"), {QKeySequence::Copy}, [this] { copyImage(); });
    m_copyCsvAction =
        add(tr("Copy Data as CSV"), {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C)}, [this] { copyCsv(); });
    m_savePngAction = add(tr("Save as PNG…"), {QKeySequence::Save}, [this] { saveWithDialog(false); });
    m_saveSvgAction =
        add(tr("Save as SVG…"), {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S)}, [this] { saveWithDialog(true); });
    for (QAction *zoom : {m_zoomInAction, m_zoomOutAction, m_resetZoomAction})
        zoom->setEnabled(!m_spec.isPie());
}

void ChartWidget::applyTheme()
{
    m_dark = palette().color(QPalette::Window).lightness() < 128;
    chart()->setTheme(m_dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    // The theme brings its own fonts; the chart reads better in the application's.
    const QFont base = font();
    QFont title = base;
    title.setBold(true);
    title.setPointSizeF(base.pointSizeF() * 1.15);
    chart()->setTitleFont(title);
    chart()->legend()->setFont(base);
    for (QAbstractAxis *axis : chart()->axes()) {
        axis->setLabelsFont(base);
        axis->setTitleFont(base);
    }

    // The theme also brings its own colours; the spec's win where it has them.
    for (qsizetype i = 0; i < m_contents.xySeries.size(); ++i) {
        const QColor custom = ChartFormat::specColor(m_spec.series[i].color);
        if (auto *area = qobject_cast<QAreaSeries *>(m_contents.xySeries[i])) {
            QColor fill = custom.isValid() ? custom : area->color();
            QPen border(fill, 2);
            area->setPen(border);
            fill.setAlphaF(0.45); // overlapping areas stay visible through each other
            area->setColor(fill);
        } else if (auto *scatter = qobject_cast<QScatterSeries *>(m_contents.xySeries[i])) {
            if (custom.isValid())
                scatter->setColor(custom);
            scatter->setBorderColor(scatter->color().darker(125));
        } else if (auto *line = qobject_cast<QLineSeries *>(m_contents.xySeries[i])) {
            QPen pen = line->pen();
            pen.setWidthF(2.5);
            if (custom.isValid())
                pen.setColor(custom);
            line->setPen(pen);
        }
    }
    for (qsizetype i = 0; i < m_contents.barSets.size(); ++i) {
        const QColor custom = ChartFormat::specColor(m_spec.series[i].color);
        if (custom.isValid())
            m_contents.barSets[i]->setColor(custom);
        m_contents.barSets[i]->setBorderColor(Qt::transparent);
    }
    const QColor labelColor = chart()->legend()->labelColor();
    const QBrush background = chart()->backgroundBrush();
    const QColor gap = background.gradient() && !background.gradient()->stops().isEmpty()
                           ? background.gradient()->stops().constFirst().second
                           : background.color();
    for (qsizetype i = 0; i < m_contents.slices.size(); ++i) {
        const QColor custom = ChartFormat::specColor(m_spec.colors.value(i));
        m_contents.slices[i]->setColor(custom.isValid() ? custom : ChartFormat::sliceColor(i));
        m_contents.slices[i]->setBorderColor(gap);
        m_contents.slices[i]->setBorderWidth(2);
        m_contents.slices[i]->setLabelColor(labelColor);
        m_contents.slices[i]->setLabelFont(base);
    }
    updatePieLabels();
    for (qsizetype i = 0; i < m_markers.size(); ++i)
        styleEntry(i);
    viewport()->update();
}

void ChartWidget::styleEntry(qsizetype entry)
{
    QLegendMarker *marker = m_markers.value(entry);
    if (!marker)
        return;
    QColor color;
    if (m_spec.isPie())
        color = m_contents.slices.value(entry)->color();
    else if (m_spec.isBar())
        color = m_contents.barSets.value(entry)->color();
    else if (auto *area = qobject_cast<QAreaSeries *>(m_contents.xySeries.value(entry)))
        color = area->borderColor();
    else if (auto *xy = qobject_cast<QXYSeries *>(m_contents.xySeries.value(entry)))
        color = xy->color();
    QColor label = chart()->legend()->labelColor();
    if (m_hidden.value(entry)) {
        color.setAlphaF(hiddenAlpha);
        label.setAlphaF(0.5);
    }
    marker->setVisible(true); // a hidden series hides its marker too, which could then not be clicked
    marker->setBrush(color);
    marker->setPen(QPen(color));
    marker->setLabelBrush(label);
}

void ChartWidget::setEntryVisible(qsizetype entry, bool visible)
{
    if (entry < 0 || entry >= m_hidden.size() || m_hidden[entry] == !visible)
        return;
    m_hidden[entry] = !visible;
    if (m_spec.isPie()) {
        m_contents.slices[entry]->setValue(visible ? m_spec.series.first().points.value(entry).y() : 0);
        updatePieLabels();
    } else if (m_spec.isBar()) {
        // A bar set cannot be hidden by itself; without values it takes no room in a stack and
        // the value axis no longer counts it.
        const QList<QPointF> &points = m_spec.series[entry].points;
        for (qsizetype i = 0; i < points.size(); ++i)
            m_contents.barSets[entry]->replace(i, visible ? points[i].y() : 0);
    } else {
        m_contents.xySeries[entry]->setVisible(visible);
    }
    styleEntry(entry);
}

QString ChartWidget::toolTipText(qsizetype series, qsizetype point) const
{
    if (m_spec.isPie()) {
        if (point < 0 || point >= m_contents.slices.size())
            return {};
        return tr("%1\n%2 (%3%)", "pie slice tooltip: name, value, percentage")
            .arg(m_spec.categories[point], ChartFormat::yText(m_spec, m_spec.series.first().points[point].y()),
                 QLocale().toString(m_contents.slices[point]->percentage() * 100, 'f', 1));
    }
    return ChartFormat::pointText(m_spec, series, point);
}

void ChartWidget::showPointToolTip(qsizetype series, const QPointF &position, bool state)
{
    if (!state) {
        showToolTip({}, false);
        return;
    }
    // The line reports where on it the mouse is; the tooltip names the nearest data point.
    QAbstractSeries *chartSeries = m_contents.xySeries.value(series);
    const QXYSeries *points = m_contents.pointSeries.value(series);
    if (!chartSeries || !points)
        return;
    const QPointF target = chart()->mapToPosition(position, chartSeries);
    qsizetype nearest = -1;
    qreal nearestDistance = std::numeric_limits<qreal>::max();
    for (qsizetype i = 0; i < points->count(); ++i) {
        const qreal distance = QLineF(chart()->mapToPosition(points->at(i), chartSeries), target).length();
        if (distance < nearestDistance) {
            nearest = i;
            nearestDistance = distance;
        }
    }
    showToolTip(toolTipText(series, nearest), true);
}

void ChartWidget::showToolTip(const QString &text, bool state)
{
    if (state && !text.isEmpty())
        QToolTip::showText(QCursor::pos(), text, this);
    else
        QToolTip::hideText();
}

void ChartWidget::zoomIn()
{
    zoomAround(chart()->plotArea().center(), 1 / zoomStep);
}

void ChartWidget::zoomOut()
{
    zoomAround(chart()->plotArea().center(), zoomStep);
}

void ChartWidget::zoomAround(const QPointF &center, qreal factor)
{
    if (m_spec.isPie())
        return;
    const QRectF visible = ChartFormat::zoomedArea(m_spec, chart()->plotArea(), center, factor);
    chart()->zoomIn(visible);
}

void ChartWidget::resetZoom()
{
    chart()->zoomReset();
}

void ChartWidget::changeEvent(QEvent *event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        applyTheme();
}

void ChartWidget::contextMenuEvent(QContextMenuEvent *event)
{
    QMenu menu(this);
    if (!m_spec.isPie()) {
        menu.addAction(m_zoomInAction);
        menu.addAction(m_zoomOutAction);
        menu.addAction(m_resetZoomAction);
        m_resetZoomAction->setEnabled(chart()->isZoomed());
        menu.addSeparator();
    }
    if (entryCount() > 1) {
        QMenu *entries = menu.addMenu(m_spec.isPie() ? tr("Show Slices") : tr("Show Series"));
        for (qsizetype i = 0; i < entryCount(); ++i) {
            QAction *entry =
                entries->addAction(m_spec.isPie() ? m_spec.categories[i] : ChartFormat::seriesName(m_spec, i));
            entry->setCheckable(true);
            entry->setChecked(isEntryVisible(i));
            connect(entry, &QAction::toggled, this, [this, i](bool on) { setEntryVisible(i, on); });
        }
        menu.addSeparator();
    }
    menu.addAction(m_copyImageAction);
    menu.addAction(m_copyCsvAction);
    menu.addSeparator();
    menu.addAction(m_savePngAction);
    menu.addAction(m_saveSvgAction);
    menu.exec(event->globalPos());
    m_resetZoomAction->setEnabled(!m_spec.isPie());
}

void ChartWidget::keyPressEvent(QKeyEvent *event)
{
    const QRectF area = chart()->plotArea();
    switch (event->key()) {
    case Qt::Key_Left:
        chart()->scroll(-area.width() / 10, 0);
        break;
    case Qt::Key_Right:
        chart()->scroll(area.width() / 10, 0);
        break;
    case Qt::Key_Up:
        chart()->scroll(0, area.height() / 10);
        break;
    case Qt::Key_Down:
        chart()->scroll(0, -area.height() / 10);
        break;
    case Qt::Key_F10:
        // Shift+F10 is the other context menu key.
        if (event->modifiers() == Qt::ShiftModifier) {
            QContextMenuEvent menu(QContextMenuEvent::Keyboard, rect().center(), mapToGlobal(rect().center()));
            contextMenuEvent(&menu);
            break;
        }
        QChartView::keyPressEvent(event);
        return;
    default:
        QChartView::keyPressEvent(event);
        return;
    }
    event->accept();
}

void ChartWidget::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton) {
        resetZoom();
        event->accept();
        return;
    }
    QChartView::mouseDoubleClickEvent(event);
}

void ChartWidget::mouseReleaseEvent(QMouseEvent *event)
{
    // QChartView zooms out on a right click; here the right button opens the context menu.
    if (event->button() == Qt::RightButton) {
        event->accept();
        return;
    }
    QChartView::mouseReleaseEvent(event);
}

void ChartWidget::wheelEvent(QWheelEvent *event)
{
    // In a chat the wheel scrolls the conversation; it zooms once the chart has the focus (a
    // click on it) or with Ctrl held.
    const bool zoom = !m_spec.isPie() && event->angleDelta().y() != 0 &&
                      (hasFocus() || event->modifiers().testFlag(Qt::ControlModifier));
    if (!zoom) {
        event->ignore();
        return;
    }
    const QPointF at = chart()->mapFromScene(mapToScene(event->position().toPoint()));
    zoomAround(at, event->angleDelta().y() > 0 ? 1 / zoomStep : zoomStep);
    event->accept();
}

void ChartWidget::paintEvent(QPaintEvent *event)
{
    QChartView::paintEvent(event);
    if (!hasFocus())
        return;
    // Without a frame nothing else shows that the keys now act on this chart.
    QPainter painter(viewport());
    QPen pen(palette().color(QPalette::Highlight), 2);
    painter.setPen(pen);
    painter.drawRect(QRectF(viewport()->rect()).adjusted(1, 1, -1, -1));
}

void ChartWidget::focusInEvent(QFocusEvent *event)
{
    QChartView::focusInEvent(event);
    viewport()->update();
}

void ChartWidget::focusOutEvent(QFocusEvent *event)
{
    QChartView::focusOutEvent(event);
    viewport()->update();
}

QImage ChartWidget::toImage(qreal devicePixelRatio) const
{
    return ChartFormat::image(*scene(), chart()->geometry(), devicePixelRatio);
}

bool ChartWidget::savePng(const QString &path) const
{
    // Twice the size on screen: crisp when pasted into a document or shown on a dense display.
    return toImage(2).save(path, "PNG");
}

bool ChartWidget::saveSvg(const QString &path) const
{
    return ChartFormat::writeSvg(*scene(), chart()->geometry(), path, accessibleName(), m_spec.summary());
}

void ChartWidget::copyImage() const
{
    QGuiApplication::clipboard()->setImage(toImage(devicePixelRatioF()));
}

void ChartWidget::copyCsv() const
{
    const QString csv = m_spec.toCsv();
    auto *data = new QMimeData;
    data->setText(csv);
    data->setData(QStringLiteral("text/csv"), csv.toUtf8());
    QGuiApplication::clipboard()->setMimeData(data);
}

void ChartWidget::saveWithDialog(bool svg)
{
    static const QRegularExpression unsafe(QStringLiteral(R"([\\/:*?"<>|]+)"));
    QString name = m_spec.title.isEmpty() ? tr("chart") : m_spec.title;
    name.replace(unsafe, QStringLiteral(" "));
    const QString suggested = SaveLocation::suggest(
        name.trimmed() + (svg ? QStringLiteral(".svg") : QStringLiteral(".png")), QStandardPaths::PicturesLocation);
    const QString path =
        QFileDialog::getSaveFileName(this, svg ? tr("Save Chart as SVG") : tr("Save Chart as PNG"), suggested,
                                     svg ? tr("SVG images (*.svg)") : tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    SaveLocation::remember(path);
    if (!(svg ? saveSvg(path) : savePng(path))) {
        QMessageBox::warning(this, tr("Could Not Save the Chart"),
                             tr("The chart could not be saved to %1. Check that the folder exists and is writable.")
                                 .arg(QDir::toNativeSeparators(path)));
    }
}

bool ChartWidget::renderToPng(const ChartSpec &spec, const QString &path, QSize size, bool dark)
{
    ChartWidget widget(spec);
    widget.setPalette(ChartFormat::themePalette(dark));
    // Laid out like a shown widget, without a window on any screen.
    widget.setAttribute(Qt::WA_DontShowOnScreen);
    widget.setFixedSize(size);
    widget.show();
    // The chart lays out its legend and axes when the layout requests are delivered.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    return widget.toImage(1).save(path, "PNG");
}

} // namespace Sandpiper
