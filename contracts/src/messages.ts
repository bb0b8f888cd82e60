/** Field messages from spec section 5, shared by the server's validation and the web's forms. */
export const MSG = {
  firstName: 'Please enter first name!',
  lastName: 'Please enter last name!',
  phoneValid: 'Enter valid phone number!',
  phoneInvalid: 'Phone number is not valid!',
  phone: 'Please enter phone number!',
  zipValid: 'Enter valid zip code!',
  zip: 'Please enter zip code!',
  city: 'Please enter city!',
  cityValid: 'Enter valid city!',
  stateValid: 'Enter valid state!',
  countryValid: 'Enter valid country!',
  state: 'Please enter state!',
  country: 'Please enter country!',
  emailFormat: 'The Email you entered is not a valid format!',
  email: 'Please enter Email Address!',
  password: 'Please enter password!',
  name: 'Please enter name!',
  rePassword: 'Please re-enter password!',
  passwordMismatch: 'The two passwords you entered did not match!',
  previousPassword: 'Please enter previous password!',
  newPassword: 'Please enter new password!',
  title: 'Please enter Title!',
  comment: 'Comment is required',
  pinLength: 'The length of Pin should be 6 digits',
  tryAgain: 'Please try again.',
  invalidEmailUsername: 'Invalid Email/Username!',
  somethingWrong: 'Something went wrong, Please try again!',
  noRecord: 'No Record Found',
  username: 'Please enter Email/Username!',
  passwordPolicy: 'Password must be at least 8 characters long',
} as const;

export const PIN_LENGTH = 6;
export const PASSWORD_MIN_LENGTH = 8;

/** The locations area's messages (here, with no zod, so the web's main bundle can import them). */
export const MSG_LOCATION = {
  type: 'Please select location type!',
  code: 'Please enter location code!',
  codeFormat: 'Use letters, digits and . _ / - only (at most 64)',
  capacity: 'Please enter capacity!',
  capacityValid: 'Capacity must be a whole number of 0 or more (0 = unlimited)',
  created: 'Location created successfully',
  updated: 'Location updated successfully',
} as const;

/** UploadInventory's field messages (the Add Data panel's Inventory form names them before the server would). */
export const MSG_INVENTORY_UPLOAD = {
  inventoryType: 'Please select inventory type!',
  location: 'Please select location!',
  countDate: 'Please select count date!',
} as const;
