import PlaceholderPage from '../../placeholder/PlaceholderPage.tsx';

export default function Page() {
  return <PlaceholderPage title="Products" />;
}
