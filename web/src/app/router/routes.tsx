import type { ReactNode } from 'react';
import { lazyScreen } from './lazy-screen';
// Not lazy: the error pages (no-internet above all) must show when the network or a chunk load is what failed.
import ErrorPage from '../../features/errors/pages/ErrorPage';
import { ModuleGate } from './ModuleGate';
import type { RouteItem, RouteTable } from './route-types';

/** Spec section 2: unknown paths go to the 404 page when this flag is on, otherwise to the sign-in page. */
export const SHOW_NOT_FOUND_PAGE = true;
export const NOT_FOUND_PATH = '/error-pages/error-404';
export const NO_INTERNET_PATH = '/error-pages/nointernet';

// Every screen is its own chunk.
const SignInPage = lazyScreen(() => import('../../features/auth/pages/SignInPage'));
const ForgotPasswordPage = lazyScreen(() => import('../../features/auth/pages/ForgotPasswordPage'));
const ResetPasswordPage = lazyScreen(() => import('../../features/auth/pages/ResetPasswordPage'));
const ServiceSelectionPage = lazyScreen(() => import('../../features/selection/pages/ServiceSelectionPage'));
const WarehouseSelectionPage = lazyScreen(() => import('../../features/selection/pages/WarehouseSelectionPage'));
const DashboardPage = lazyScreen(() => import('../../features/dashboard/pages/DashboardPage'));
const ProfilePage = lazyScreen(() => import('../../features/profile/pages/ProfilePage'));
const EmailVerificationPage = lazyScreen(() => import('../../features/profile/pages/EmailVerificationPage'));
const ComingSoonScreen = lazyScreen(() => import('../../features/errors/pages/ComingSoonScreen'));
const WarehousePage = lazyScreen(() => import('../../features/warehouses/pages/WarehousePage'));
const UserPage = lazyScreen(() => import('../../features/users/pages/UserPage'));
const CustomerPage = lazyScreen(() => import('../../features/customers/pages/CustomerPage'));
const LocationPage = lazyScreen(() => import('../../features/locations/pages/LocationPage'));
const CreateLocationPage = lazyScreen(() => import('../../features/locations/pages/CreateLocationPage'));
const LocationUploadPage = lazyScreen(() => import('../../features/locations/pages/LocationUploadPage'));
const OtherLocationsPage = lazyScreen(() => import('../../features/locations/pages/OtherLocationsPage'));
const PrintLocationsPage = lazyScreen(() => import('../../features/locations/pages/PrintLocationsPage'));
const QRCodePage = lazyScreen(() => import('../../features/locations/pages/QRCodePage'));
const SkuScreen = lazyScreen(() => import('../../features/skus/pages/SkuScreen'));
const DimensionsPage = lazyScreen(() => import('../../features/skus/pages/DimensionsPage'));
const MovePage = lazyScreen(() => import('../../features/inventory/pages/MovePage'));
const MovePalletPage = lazyScreen(() => import('../../features/inventory/pages/MovePalletPage'));
const AdjustmentPage = lazyScreen(() => import('../../features/inventory/pages/AdjustmentPage'));
const CycleCountPage = lazyScreen(() => import('../../features/inventory/pages/CycleCountPage'));
const ReplenishmentPage = lazyScreen(() => import('../../features/inventory/pages/ReplenishmentPage'));
const ProductExpirePage = lazyScreen(() => import('../../features/inventory/pages/ProductExpirePage'));
const InventoryReportsPage = lazyScreen(() => import('../../features/reports/pages/InventoryReportsPage'));
const InBoundScreen = lazyScreen(() => import('../../features/inbound/pages/InBoundScreen'));
const ROReportPage = lazyScreen(() => import('../../features/inbound/pages/ROReportPage'));
const ROReportDetailsPage = lazyScreen(() => import('../../features/inbound/pages/ROReportDetailsPage'));
const ROInwardPage = lazyScreen(() => import('../../features/inbound/pages/ROInwardPage'));
const InboundReportsPage = lazyScreen(() => import('./screens/InboundReportsScreen'));
const OrderDashboardPage = lazyScreen(() => import('../../features/orders/pages/OrderDashboardPage'));
const BackordersPage = lazyScreen(() => import('../../features/orders/pages/BackordersPage'));
const KitDashboardPage = lazyScreen(() => import('../../features/kits/pages/KitDashboardPage'));
const FreightShipmentPage = lazyScreen(() => import('../../features/freight/pages/FreightShipmentPage'));
const BatchPrintPage = lazyScreen(() => import('../../features/batch-print/pages/BatchPrintPage'));
const BatchAllocationPage = lazyScreen(() => import('../../features/floor/pages/BatchAllocationPage'));
const BatchJobPage = lazyScreen(() => import('../../features/floor/pages/BatchJobPage'));
const ShippingDashboardPage = lazyScreen(() => import('../../features/shipping/pages/ShippingDashboardPage'));
const BillingPage = lazyScreen(() => import('../../features/billing/pages/BillingPage'));
const BillingSummaryPage = lazyScreen(() => import('../../features/billing/pages/BillingSummaryPage'));
const InvoiceAuditPage = lazyScreen(() => import('../../features/billing/pages/InvoiceAuditPage'));
const OrderReportsPage = lazyScreen(() => import('../../features/reports/pages/OrderReportsPage'));
const ProductivityReportPage = lazyScreen(() => import('../../features/reports/pages/ProductivityReportPage'));
const LaborPage = lazyScreen(() => import('../../features/reports/pages/LaborPage'));
const JobTrackingPage = lazyScreen(() => import('../../features/reports/pages/JobTrackingPage'));
const OtherReportsPage = lazyScreen(() => import('../../features/reports/pages/OtherReportsPage'));
const RmaPage = lazyScreen(() => import('../../features/returns/pages/RmaPage'));
const ReturnsPage = lazyScreen(() => import('../../features/returns/pages/ReturnsPage'));
const ManualReturnsPage = lazyScreen(() => import('../../features/returns/pages/ManualReturnsPage'));
const ReturnReportPage = lazyScreen(() => import('../../features/returns/pages/ReturnReportPage'));
const HelpDeskPage = lazyScreen(() => import('../../features/helpdesk/pages/HelpDeskPage'));

/** Spec section 2, the app routes (all need the role 'user'). Those without a screen yet show coming-soon. */
export const SPEC_APP_PATHS = [
  '/Dashboard', '/WarehouseSelection', '/ServiceSelection', '/InBound', '/OrderDashboard', '/Location', '/CreateLocation',
  '/LocationUpload', '/OtherLocations', '/PrintLocations', '/BatchJob', '/BatchAllocation', '/BatchPrint', '/KitDashboard',
  '/FreightShipment', '/Returns', '/ManualReturns', '/ShippingDashboard', '/RMA', '/Move', '/MovePallet', '/Adjustment',
  '/ProductReplenishment', '/ProductExpire', '/QRCode', '/Dimensions', '/SKU', '/CycleCount', '/User', '/Customer',
  '/Warehouse', '/BKO', '/InventoryReports', '/OrderReports', '/InboundReports', '/OtherReports', '/Billing',
  '/ProductivityReport', '/JobTracking', '/Labor', '/ROReport', '/ROReportDetails', '/ROInward', '/BillingSummary',
  '/InvoiceAudit', '/Return', '/HelpDesk',
] as const;

const BUILT_SCREENS: Record<string, ReactNode> = {
  '/Dashboard': <DashboardPage />,
  '/ServiceSelection': <ServiceSelectionPage />,
  '/WarehouseSelection': <WarehouseSelectionPage />,
  '/Warehouse': <WarehousePage />,
  '/User': <UserPage />,
  '/Customer': <CustomerPage />,
  '/Location': <LocationPage />,
  '/CreateLocation': <CreateLocationPage />,
  '/LocationUpload': <LocationUploadPage />,
  '/OtherLocations': <OtherLocationsPage />,
  '/PrintLocations': <PrintLocationsPage />,
  '/QRCode': <QRCodePage />,
  '/SKU': <SkuScreen />,
  '/Dimensions': <DimensionsPage />,
  '/Move': <MovePage />,
  '/MovePallet': <MovePalletPage />,
  '/Adjustment': <AdjustmentPage />,
  '/CycleCount': <CycleCountPage />,
  '/ProductReplenishment': <ReplenishmentPage />,
  '/ProductExpire': <ProductExpirePage />,
  '/InventoryReports': <InventoryReportsPage />,
  '/InBound': <InBoundScreen />,
  '/ROReport': <ROReportPage />,
  '/ROReportDetails': <ROReportDetailsPage />,
  '/ROInward': <ROInwardPage />,
  '/InboundReports': <InboundReportsPage />,
  '/OrderDashboard': <OrderDashboardPage />,
  '/BKO': <BackordersPage />,
  '/KitDashboard': <KitDashboardPage />,
  '/BatchPrint': <BatchPrintPage />,
  '/BatchAllocation': <BatchAllocationPage />,
  '/BatchJob': <BatchJobPage />,
  '/ShippingDashboard': <ShippingDashboardPage />,
  '/Billing': <BillingPage />,
  '/BillingSummary': <BillingSummaryPage />,
  '/InvoiceAudit': <InvoiceAuditPage />,
  '/OrderReports': <OrderReportsPage />,
  '/ProductivityReport': <ProductivityReportPage />,
  '/Labor': <LaborPage />,
  '/JobTracking': <JobTrackingPage />,
  '/OtherReports': <OtherReportsPage />,
  '/RMA': <RmaPage />,
  '/Returns': <ReturnsPage />,
  '/ManualReturns': <ManualReturnsPage />,
  '/Return': <ReturnReportPage />,
  '/FreightShipment': <FreightShipmentPage />,
  '/HelpDesk': <HelpDeskPage />,
};

const routeId = (path: string) => path.slice(1);
const titleIdOf = (path: string) => `routes.${routeId(path)}`;

const appRoutes: RouteItem<ReactNode>[] = [
  ...SPEC_APP_PATHS.map((path) => ({
    id: routeId(path),
    path,
    titleId: titleIdOf(path),
    // Every screen is gated by its module (coming-soon ones too), from the catalogue: none is wrapped by hand.
    element: <ModuleGate path={path}>{BUILT_SCREENS[path] ?? <ComingSoonScreen titleId={titleIdOf(path)} />}</ModuleGate>,
  })),
  { id: 'Profile', path: '/Profile', titleId: 'routes.Profile', element: <ProfilePage /> },
  { id: 'EmailVerification', path: '/EmailVerification', titleId: 'routes.EmailVerification', element: <EmailVerificationPage /> },
];

export const ERROR_PAGES = ['error-401', 'error-403', 'error-404', 'error-500', 'error-504', 'coming-soon', 'nointernet'] as const;
export type ErrorPageKind = (typeof ERROR_PAGES)[number];

export const ROUTE_TABLE: RouteTable<ReactNode> = {
  anonymous: {
    fallbackPath: '/',
    routes: [
      // A signed-in user opening the sign-in page goes on to the landing rules (which start at the Dashboard).
      { id: 'SignIn', path: '/', titleId: 'auth.signIn.pageTitle', element: <SignInPage />, redirectPath: '/Dashboard' },
      { id: 'ForgotPassword', path: '/forget-password', titleId: 'auth.forgot.title', element: <ForgotPasswordPage /> },
      { id: 'ResetPassword', path: '/reset-password', titleId: 'auth.reset.title', element: <ResetPasswordPage /> },
    ],
  },
  authorised: { fallbackPath: '/', routes: appRoutes },
  unauthorised: {
    fallbackPath: '/',
    routes: ERROR_PAGES.map((kind) => ({ id: kind, path: `/error-pages/${kind}`, element: <ErrorPage kind={kind} /> })),
  },
};
